import { randomUUID } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTransferBody } from '#shared/api/transfers.ts';
import { auditLedger } from '#shared/audit/ledger-audit.ts';
import { migrateStatementCounters } from '#shared/audit/statement-migration.ts';
import { documentClient, tableName } from '#shared/aws/dynamodb.ts';
import { ledgerWrites } from '#shared/data/ledger.ts';
import { queryAll } from '#shared/data/query.ts';
import { findRefund, type Refund } from '#shared/data/refund.ts';
import { createStore } from '#shared/data/store.ts';
import { transactWrite } from '#shared/data/transact.ts';
import { listStoreWallets } from '#shared/data/wallet.ts';
import {
  accounts,
  escrowReleasePostings,
  type JournalEntry,
  paymentPostings,
  payoutPostings,
} from '#shared/domain/ledger.ts';
import { monthOf, netOf, previousMonth, statementKinds } from '#shared/domain/statement.ts';
import { creditStore } from '#shared/operations/credit.ts';
import { createRefundFor } from '#shared/operations/refunds.ts';
import { statementCsv, statementOf } from '#shared/operations/statements.ts';
import { createTransferFor } from '#shared/operations/transfers.ts';
import { parseCsv } from '#test/support/csv.ts';
import { actingOwnerOf, merchant, mtnPayout, paidPayment } from '#test/support/fixtures.ts';
import { payoutCallback } from '#test/support/payouts.ts';

/**
 * A month's statement, read from the day counters the ledger keeps: its opening plus its
 * movements is its closing, to the cent, for a store and for the business, with every kind of
 * movement, across a month's boundary (UTC days), on the page's figures and in the CSV.
 */

const baseUrl = 'http://localhost:0';
const silentNumber = '+2250700000004';

beforeAll(() => {
  process.env.SANDBOX = 'true';
});

const post = (entry: Omit<JournalEntry, 'id' | 'cause'>) =>
  transactWrite(ledgerWrites({ ...entry, id: `test:${randomUUID()}`, cause: 'statement test' }));

const storeTotal = async (businessId: string, storeId: string) =>
  (await listStoreWallets(businessId, storeId)).reduce((sum, wallet) => sum + wallet.total, 0);

describe('monthly statements', () => {
  it('opening + movements = closing, for a store and the business, with every kind, across a month’s end', async () => {
    const m = await merchant();
    const member = actingOwnerOf(m);
    const annex = await createStore({ businessId: m.business.id, name: 'Annexe' });
    const thisMonth = monthOf(new Date());
    const lastMonth = previousMonth(thisMonth);
    const wallet = (storeId: string, kind: 'operating' | 'escrow' = 'operating') =>
      accounts.wallet(m.business.id, storeId, kind);
    // Last month: test money, and SMS bought in its very last millisecond.
    const lastInstant = new Date(`${thisMonth}-01T00:00:00.000Z`).getTime() - 1;
    await post({
      kind: 'credit',
      createdAt: new Date(lastInstant - 60_000).toISOString(),
      postings: [
        { account: accounts.sandboxFunding, amount: -2_000_000 },
        { account: wallet(m.store.id), amount: 2_000_000 },
      ],
    });
    await post({
      kind: 'sms',
      createdAt: new Date(lastInstant).toISOString(),
      postings: [
        { account: wallet(m.store.id), amount: -5_000 },
        { account: 'platform:sms', amount: 5_000 },
      ],
    });
    // This month, from its first millisecond: a withdrawal, an escrow's payment and release.
    const firstInstant = `${thisMonth}-01T00:00:00.000Z`;
    await post({
      kind: 'withdrawal',
      createdAt: firstInstant,
      postings: payoutPostings({
        businessId: m.business.id,
        storeId: m.store.id,
        method: 'wave',
        amount: 300_000,
        fee: 3_000,
      }),
    });
    await post({
      kind: 'payment',
      createdAt: firstInstant,
      postings: paymentPostings({
        businessId: m.business.id,
        storeId: m.store.id,
        provider: 'orange',
        amount: 100_000,
        fee: 1_000,
        wallet: 'escrow',
      }),
    });
    await post({
      kind: 'escrow',
      createdAt: firstInstant,
      postings: escrowReleasePostings({ businessId: m.business.id, storeId: m.store.id, amount: 99_000 }),
    });
    // And today, through the service's own operations: a payment, its partial refund, a payout,
    // a transfer to the other store, SMS bought, test money.
    const paymentId = await paidPayment(m.caller, m.store.id, {
      amountCents: 500_000,
      provider: 'wave',
      payerPhone: silentNumber,
    });
    const refund = await createRefundFor(
      m.caller,
      { paymentRequestId: paymentId, amountCents: 200_000, reference: `retour-${randomUUID()}` },
      baseUrl,
    );
    await payoutCallback((await findRefund(refund.id, true)) as Refund, 'success');
    const sent = await mtnPayout(m, 150_000, silentNumber, baseUrl);
    await payoutCallback(sent, 'success');
    await createTransferFor(
      m.caller,
      createTransferBody.parse({
        storeId: m.store.id,
        amountCents: 250_000,
        currency: 'XOF',
        paymentMethod: 'svc',
        destinationStoreId: annex.id,
      }),
      baseUrl,
    );
    await post({
      kind: 'sms',
      createdAt: new Date().toISOString(),
      postings: [
        { account: wallet(m.store.id), amount: -2_500 },
        { account: 'platform:sms', amount: 2_500 },
      ],
    });
    await creditStore(annex.id, 10_000);

    const before = await statementOf(member, { month: lastMonth, storeId: m.store.id });
    expect(before).toMatchObject({ opening: 0, closing: 1_995_000 });
    expect(before.kinds.credit).toEqual({ in: 2_000_000, out: 0, fee: 0, count: 1 });
    expect(before.kinds.sms).toEqual({ in: 0, out: -5_000, fee: 0, count: 1 });
    expect(before.lines.map((line) => [line.day, line.kind])).toEqual([
      [new Date(lastInstant).toISOString().slice(0, 10), 'credit'],
      [new Date(lastInstant).toISOString().slice(0, 10), 'sms'],
    ]);

    const store = await statementOf(member, { month: thisMonth, storeId: m.store.id });
    expect(store.opening).toBe(before.closing);
    expect(store.closing).toBe(await storeTotal(m.business.id, m.store.id));
    const moved = statementKinds.reduce((sum, kind) => sum + netOf(store.kinds[kind]), 0);
    expect(store.opening + moved).toBe(store.closing);
    expect(store.kinds.payment).toMatchObject({ in: 600_000, out: 0, count: 2 });
    expect(store.kinds.refund).toMatchObject({ out: -200_000, count: 1 });
    expect(store.kinds.transfer).toMatchObject({ in: 0, out: -400_000, count: 2 });
    expect(store.kinds.withdrawal).toEqual({ in: 0, out: -300_000, fee: 3_000, count: 1 });
    expect(store.kinds.sms).toEqual({ in: 0, out: -2_500, fee: 0, count: 1 });
    // The release moves money between the store's own wallets: as much in as out.
    expect(store.kinds.escrow).toEqual({ in: 99_000, out: -99_000, fee: 0, count: 1 });
    expect(store.kinds.credit.count).toBe(0);
    // Each day's end balance follows from the one before.
    expect(store.balances.get(store.lines.at(-1)?.day as string)).toBe(store.closing);

    const business = await statementOf(member, { month: thisMonth });
    expect(business.opening).toBe(before.closing);
    expect(business.closing).toBe(
      (await storeTotal(m.business.id, m.store.id)) + (await storeTotal(m.business.id, annex.id)),
    );
    // The transfer between the stores is in one and out of the other; only its fee leaves.
    expect(business.kinds.transfer.in).toBe(250_000);
    expect(business.kinds.credit).toEqual({ in: 10_000, out: 0, fee: 0, count: 1 });
    expect(
      business.opening + statementKinds.reduce((sum, kind) => sum + netOf(business.kinds[kind]), 0),
    ).toBe(business.closing);

    // The CSV says the same: its opening, its days' nets and its closing add up, in francs.
    for (const language of ['fr', 'en'] as const) {
      const csv = statementCsv(business, language);
      expect(csv.startsWith('\ufeff')).toBe(true);
      const { header, rows } = parseCsv(csv.slice(1), ';');
      expect(header).toHaveLength(8);
      const [date, item, , , , , net, balance] = header as string[];
      const francs = (text: string | undefined) => Number((text ?? '').replace(',', '.'));
      const opening = rows.find(
        (row) => row[item as string] === (language === 'fr' ? 'Solde d’ouverture' : 'Opening balance'),
      );
      const closing = rows.find(
        (row) => row[item as string] === (language === 'fr' ? 'Solde de clôture' : 'Closing balance'),
      );
      const days = rows.filter((row) => row[date as string] !== '' && row[net as string] !== '');
      const sum = days.reduce((total, row) => total + francs(row[net as string]), 0);
      expect(francs(opening?.[balance as string])).toBe(business.opening / 100);
      expect(francs(closing?.[balance as string])).toBe(business.closing / 100);
      expect(Math.round((francs(opening?.[balance as string]) + sum) * 100)).toBe(business.closing);
    }

    const audit = await auditLedger();
    expect(
      audit.breaks.filter((found) => found.subject.includes(m.store.id) || found.subject.includes(annex.id)),
    ).toEqual([]);
  });

  it('fills, once, the counters of days from before the ledger kept them', async () => {
    const m = await merchant();
    const member = actingOwnerOf(m);
    const longAgo = new Date(Date.now() - 40 * 24 * 60 * 60 * 1000);
    await post({
      kind: 'credit',
      createdAt: longAgo.toISOString(),
      postings: [
        { account: accounts.sandboxFunding, amount: -700_000 },
        { account: accounts.wallet(m.business.id, m.store.id, 'operating'), amount: 700_000 },
      ],
    });
    await creditStore(m.store.id, 50_000);
    // The history of a stage deployed before the counters: the days hold no statement.
    for (const counter of await queryAll({
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': `TXCOUNT#${m.store.id}` },
      ConsistentRead: true,
    })) {
      const names = Object.keys(counter).filter((name) => name.startsWith('st:'));
      await documentClient.send(
        new UpdateCommand({
          TableName: tableName(),
          Key: { pk: counter.pk, sk: counter.sk },
          UpdateExpression: `REMOVE ${names.map((_, i) => `#n${i}`).join(', ')}`,
          ExpressionAttributeNames: Object.fromEntries(names.map((name, i) => [`#n${i}`, name])),
        }),
      );
    }
    const ofStore = async () =>
      (await auditLedger(1)).breaks
        .filter((found) => found.subject.includes(m.store.id))
        .map((found) => found.kind);
    expect(await ofStore()).toContain('day_counters_differ_from_wallet');

    const only = new Set([m.store.id]);
    expect(await migrateStatementCounters({ storeIds: only })).toMatchObject({ filled: 2, changed: 0 });
    expect(await ofStore()).toEqual([]);
    expect(await migrateStatementCounters({ storeIds: only })).toEqual({ gaps: 0, filled: 0, changed: 0 });
    const old = await statementOf(member, { month: monthOf(longAgo), storeId: m.store.id });
    expect(old).toMatchObject({ opening: 0, closing: 700_000 });
    expect(old.kinds.credit).toEqual({ in: 700_000, out: 0, fee: 0, count: 1 });
  });

  it('a store of another business is not found', async () => {
    const m = await merchant();
    const other = await merchant();
    await expect(
      statementOf(actingOwnerOf(m), { month: monthOf(new Date()), storeId: other.store.id }),
    ).rejects.toMatchObject({
      id: 'store_not_found',
    });
  });
});
