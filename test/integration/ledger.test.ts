import { GetCommand, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { auditLedger } from '#shared/audit/ledger-audit.ts';
import { documentClient, tableName } from '#shared/aws/dynamodb.ts';
import { bucketShardKey, ledgerWrites, shareAttribute } from '#shared/data/ledger.ts';
import { transactWrite } from '#shared/data/transact.ts';
import { walletKey } from '#shared/data/wallet.ts';
import { accounts, ledgerShardOf } from '#shared/domain/ledger.ts';
import { AlreadyPosted, InsufficientBalance } from '#shared/errors/ledger.ts';
import { creditStore } from '#shared/operations/credit.ts';
import { merchant, operatingWallet } from '#test/support/fixtures.ts';

/** Moves money out of a store's operating wallet back to the funding account. */
function debit(businessId: string, storeId: string, amount: number, id: string) {
  return transactWrite(
    ledgerWrites({
      id,
      kind: 'credit',
      cause: 'test debit',
      createdAt: new Date().toISOString(),
      postings: [
        { account: accounts.wallet(businessId, storeId, 'operating'), amount: -amount },
        { account: accounts.sandboxFunding, amount },
      ],
    }),
  );
}

/**
 * A store credited with `cents`, and `edit` that moves its operating wallet's balance outside the
 * ledger, as a defect (or a write caught half-way) would.
 */
async function storeWithEditableWallet(cents: number) {
  const { business, store } = await merchant();
  await creditStore(store.id, cents);
  const key = walletKey(business.id, store.id, 'operating');
  const edit = (amount: number) =>
    documentClient.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: key,
        UpdateExpression: 'SET #total = #total + :amount, available = available + :amount',
        ExpressionAttributeNames: { '#total': 'total' },
        ExpressionAttributeValues: { ':amount': amount },
      }),
    );
  return { business, store, edit };
}

describe('the ledger', () => {
  it('credits a store through an entry from the funding account, and the books balance', async () => {
    const { business, store } = await merchant();
    await creditStore(store.id, 250_000);
    expect(await operatingWallet(business.id, store.id)).toMatchObject({ total: 250_000, blocked: 0 });
    const audit = await auditLedger();
    expect(audit.breaks).toEqual([]);
    expect(audit.sumOfAllPostings).toBe(0);
  });

  it('audit reports a wallet whose balance was edited outside the ledger', async () => {
    const { business, store, edit } = await storeWithEditableWallet(7_000);
    await edit(500);
    try {
      const audit = await auditLedger();
      expect(audit.ok).toBe(false);
      expect(audit.breaks).toContainEqual({
        kind: 'balance_differs_from_postings',
        subject: accounts.wallet(business.id, store.id, 'operating'),
        detail: 'total 7500, postings 7000',
      });
    } finally {
      await edit(-500);
    }
    expect((await auditLedger()).ok).toBe(true);
  });

  it('audit reports a statement counter edited outside the ledger: against its wallet, and against its day’s entries', async () => {
    const { business, store } = await merchant();
    await creditStore(store.id, 9_000);
    const counter = { pk: `TXCOUNT#${store.id}`, sk: new Date().toISOString().slice(0, 10) };
    const edit = (names: Record<string, string>, amounts: Record<string, number>) =>
      documentClient.send(
        new UpdateCommand({
          TableName: tableName(),
          Key: counter,
          UpdateExpression: `ADD ${Object.keys(names)
            .map((name, i) => `${name} :a${i}`)
            .join(', ')}`,
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: Object.fromEntries(
            Object.values(amounts).map((amount, i) => [`:a${i}`, amount]),
          ),
        }),
      );
    const wallet = accounts.wallet(business.id, store.id, 'operating');
    // The day's net edited: the counters no longer add up to the wallet.
    await edit({ '#net': 'st:net:operating' }, { net: 100 });
    try {
      const audit = await auditLedger(1);
      expect(audit.breaks).toContainEqual({
        kind: 'day_counters_differ_from_wallet',
        subject: wallet,
        detail: 'day counters add up to 9100, total 9000',
      });
    } finally {
      await edit({ '#net': 'st:net:operating' }, { net: -100 });
    }
    // A credit relabelled as a payment: the net still holds, the day's lines do not.
    await edit(
      { '#credit': 'st:credit:in', '#payment': 'st:payment:in' },
      { credit: -9_000, payment: 9_000 },
    );
    try {
      const breaks = (await auditLedger(1)).breaks.filter((found) => found.subject.includes(store.id));
      expect(breaks).toEqual([
        expect.objectContaining({
          kind: 'day_counter_differs_from_entries',
          detail: "st:credit:in 0, the day's entries 9000",
        }),
        expect.objectContaining({
          kind: 'day_counter_differs_from_entries',
          detail: "st:payment:in 9000, the day's entries 0",
        }),
      ]);
    } finally {
      await edit(
        { '#credit': 'st:credit:in', '#payment': 'st:payment:in' },
        { credit: 9_000, payment: -9_000 },
      );
    }
    expect((await auditLedger()).breaks.filter((found) => found.subject.includes(store.id))).toEqual([]);
  });

  it('audit on a table in use: a break one scan saw and the next did not is a write in flight, not a break', async () => {
    const { edit } = await storeWithEditableWallet(4_000);
    // The wallet moves before its entry lands, as a scan that reads between the two would see it.
    await edit(300);
    const send = documentClient.send.bind(documentClient);
    let scans = 0;
    const spy = vi.spyOn(documentClient, 'send').mockImplementation((async (command: unknown) => {
      const answer = await send(command as never);
      const lastPage = !(answer as { LastEvaluatedKey?: unknown }).LastEvaluatedKey;
      if (command instanceof ScanCommand && lastPage && ++scans === 1) await edit(-300);
      return answer;
    }) as never);
    try {
      const audit = await auditLedger();
      expect(scans).toBe(2);
      expect(audit.breaks).toEqual([]);
      expect(audit.ok).toBe(true);
    } finally {
      spy.mockRestore();
    }
  });

  it('posts an entry once: replaying its id changes nothing', async () => {
    const { business, store } = await merchant();
    await creditStore(store.id, 10_000, `credit:replay-${store.id}`);
    await expect(creditStore(store.id, 10_000, `credit:replay-${store.id}`)).rejects.toBeInstanceOf(
      AlreadyPosted,
    );
    expect((await operatingWallet(business.id, store.id)).total).toBe(10_000);
  });

  it('refuses a debit beyond the available balance, writing nothing', async () => {
    const { business, store } = await merchant();
    await creditStore(store.id, 5_000);
    await expect(debit(business.id, store.id, 5_001, `debit:${store.id}`)).rejects.toBeInstanceOf(
      InsufficientBalance,
    );
    expect((await operatingWallet(business.id, store.id)).total).toBe(5_000);
    expect((await auditLedger()).ok).toBe(true);
  });

  it('never overdraws under concurrent debits: exactly as many succeed as the balance allows', async () => {
    const { business, store } = await merchant();
    await creditStore(store.id, 1_000);
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) => debit(business.id, store.id, 100, `debit:${store.id}:${i}`)),
    );
    const refused = results.filter((r) => r.status === 'rejected');
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(10);
    expect(refused.every((r) => (r as PromiseRejectedResult).reason instanceof InsufficientBalance)).toBe(
      true,
    );
    expect(await operatingWallet(business.id, store.id)).toMatchObject({ total: 0, available: 0 });
    expect((await auditLedger()).ok).toBe(true);
  });

  it('keeps every invariant through random credits, debits and replays (property)', async () => {
    const { business, store } = await merchant();
    const operation = fc.oneof(
      fc.record({ type: fc.constant('credit' as const), amount: fc.integer({ min: 1, max: 50_000 }) }),
      fc.record({ type: fc.constant('debit' as const), amount: fc.integer({ min: 1, max: 50_000 }) }),
      fc.record({ type: fc.constant('replay' as const), index: fc.nat() }),
    );
    let model = (await operatingWallet(business.id, store.id)).total;
    const posted: { id: string; amount: number; type: 'credit' | 'debit' }[] = [];
    let counter = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { minLength: 1, maxLength: 8 }), async (operations) => {
        for (const op of operations) {
          const id = `prop:${store.id}:${counter++}`;
          if (op.type === 'credit') {
            await creditStore(store.id, op.amount, id);
            model += op.amount;
            posted.push({ id, amount: op.amount, type: 'credit' });
          } else if (op.type === 'debit') {
            try {
              await debit(business.id, store.id, op.amount, id);
              model -= op.amount;
              posted.push({ id, amount: op.amount, type: 'debit' });
            } catch (error) {
              expect(error).toBeInstanceOf(InsufficientBalance);
              expect(op.amount).toBeGreaterThan(model);
            }
          } else if (posted.length > 0) {
            const earlier = posted[op.index % posted.length];
            if (!earlier) continue;
            const replay =
              earlier.type === 'credit'
                ? creditStore(store.id, earlier.amount, earlier.id)
                : debit(business.id, store.id, earlier.amount, earlier.id);
            await expect(replay).rejects.toBeInstanceOf(AlreadyPosted);
          }
          const wallet = await operatingWallet(business.id, store.id);
          expect(wallet.total).toBe(model);
          expect(wallet.total).toBeGreaterThanOrEqual(0);
          expect((await auditLedger()).breaks).toEqual([]);
        }
      }),
      { numRuns: 15 },
    );
  });

  it('audit reports a shard of a sharded account edited outside the ledger, on a wallet or a bucket', async () => {
    const { business, store } = await merchant();
    await creditStore(store.id, 9_000);
    // An entry that moves no wallet: a provider settling what it owes into fee revenue.
    const settlement = `settlement:${store.id}`;
    await transactWrite(
      ledgerWrites({
        id: settlement,
        kind: 'credit',
        cause: 'test settlement',
        createdAt: new Date().toISOString(),
        postings: [
          { account: accounts.providerClearing('wave'), amount: 400 },
          { account: accounts.platformFees, amount: -400 },
        ],
      }),
    );
    const bucket = ledgerShardOf({ id: settlement, postings: [] });
    if (!('bucket' in bucket)) throw new Error('an entry without a wallet has a bucket');
    const editShare = (key: Record<string, string>, account: string, amount: number) =>
      documentClient.send(
        new UpdateCommand({
          TableName: tableName(),
          Key: key,
          UpdateExpression: 'SET #share = #share + :amount',
          ExpressionAttributeNames: { '#share': shareAttribute(account) },
          ExpressionAttributeValues: { ':amount': amount },
        }),
      );
    const wallet = accounts.wallet(business.id, store.id, 'operating');
    for (const [key, account, shard] of [
      [walletKey(business.id, store.id, 'operating'), accounts.sandboxFunding, wallet],
      [bucketShardKey(bucket.bucket), accounts.platformFees, `bucket:${bucket.bucket}`],
    ] as const) {
      expect((await auditLedger()).breaks).toEqual([]);
      await editShare(key, account, 1);
      try {
        const audit = await auditLedger();
        expect(audit.ok).toBe(false);
        expect(audit.breaks).toContainEqual(
          expect.objectContaining({ kind: 'share_differs_from_postings', subject: `${account} on ${shard}` }),
        );
        expect(audit.breaks).toContainEqual(
          expect.objectContaining({ kind: 'balance_differs_from_postings', subject: account }),
        );
      } finally {
        await editShare(key, account, -1);
      }
    }
    const audit = await auditLedger();
    expect(audit.ok).toBe(true);
    expect(audit.accountBalances[accounts.sandboxFunding]).toBeLessThanOrEqual(-9_000);
  });

  it("books non-wallet postings on the entry's first wallet, so a store's credit writes only its own items", async () => {
    const { business, store } = await merchant();
    await creditStore(store.id, 3_000);
    const { Item } = await documentClient.send(
      new GetCommand({ TableName: tableName(), Key: walletKey(business.id, store.id, 'operating') }),
    );
    expect(Item?.[shareAttribute(accounts.sandboxFunding)]).toBe(-3_000);
    expect(Item?.total).toBe(3_000);
  });
});
