import { randomUUID } from 'node:crypto';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { handler as settleAutomatically } from '#functions/workers/settle-automatically.ts';
import { documentClient, tableName } from '#shared/aws/dynamodb.ts';
import { automaticSettlementsAt, getAutomaticSettlement } from '#shared/data/automatic-settlement.ts';
import {
  addPayoutAccountRecord,
  payoutAccountKey,
  removePayoutAccountRecord,
} from '#shared/data/payout-account.ts';
import { getTransfer } from '#shared/data/transfer.ts';
import type { PayoutAccount } from '#shared/domain/payout-accounts.ts';
import { StoreNotFound } from '#shared/errors/businesses.ts';
import { PayoutAccountNotFound } from '#shared/errors/payout-accounts.ts';
import {
  readAutomaticSettlementForm,
  setAutomaticSettlement,
  turnOffAutomaticSettlement,
} from '#shared/operations/automatic-settlement.ts';
import { creditStore } from '#shared/operations/credit.ts';
import { withdrawableCents } from '#shared/operations/payout-accounts.ts';
import { balanceOf } from '#shared/operations/stores.ts';
import { automaticSettlementReference, settleStore } from '#shared/settlement/automatic-settlement.ts';
import { actingOwnerOf, merchant } from '#test/support/fixtures.ts';

/**
 * Automatic settlement (issue 34, item 3) on DynamoDB Local, run through the hourly worker's
 * handler: a store set for the current hour withdraws what it has above the amount it keeps, once
 * a day; a cooling or removed account is skipped; a setting of another hour, or turned off, is not
 * read.
 */
const baseUrl = 'http://localhost:0';
// The sandbox's "no callback" number: the payout stays pending, nothing is queued.
const silentNumber = '+2250700000004';

beforeAll(() => {
  process.env.SANDBOX = 'true';
});

type Merchant = Awaited<ReturnType<typeof merchant>>;

async function waveAccount(m: Merchant, usableFrom: Date): Promise<PayoutAccount> {
  const account: PayoutAccount = {
    id: randomUUID(),
    businessId: m.business.id,
    paymentMethod: 'wave',
    identifier: { number: silentNumber },
    holder: 'Awa Diop',
    usableFrom: usableFrom.toISOString(),
    addedBy: `member:${m.owner.id}`,
    createdAt: new Date().toISOString(),
  };
  await addPayoutAccountRecord(account);
  return account;
}

const available = async (m: Merchant) => (await balanceOf(m.caller, m.store.id)).amount;
const today = () => new Date().toISOString().slice(0, 10);
const thisHour = () => new Date().getUTCHours();

async function transferOfTheDay(m: Merchant, day = today()) {
  const { Item } = await documentClient.send(
    new GetCommand({
      TableName: tableName(),
      Key: { pk: `BIZ#${m.business.id}`, sk: `TRANSFERREF#${automaticSettlementReference(m.store.id, day)}` },
      ConsistentRead: true,
    }),
  );
  return Item ? getTransfer(m.business.id, Item.transferId as string, true) : undefined;
}

const setFor = (m: Merchant, account: PayoutAccount, hour: number, keepCents: number) =>
  setAutomaticSettlement(
    actingOwnerOf(m),
    { storeId: m.store.id, payoutAccountId: account.id, hour, keepCents },
    { baseUrl, sourceIp: '127.0.0.1' },
  );

describe('automatic settlement', () => {
  it('withdraws what is above the kept amount, once a day, however often the worker runs', async () => {
    const m = await merchant();
    await creditStore(m.store.id, 1_000_000);
    const account = await waveAccount(m, new Date(Date.now() - 60_000));
    await setFor(m, account, thisHour(), 495_000);

    await settleAutomatically();
    // 10,000 F available, 4,950 F kept: 5,000 F and its 1 % fee (50 F) leave, 4,950 F stay.
    expect(await available(m)).toBe(495_000);
    const transfer = await transferOfTheDay(m);
    expect(transfer).toMatchObject({
      amountCents: 500_000,
      feeCents: 5_000,
      payoutAccountId: account.id,
      paymentMethod: 'wave',
      storeId: m.store.id,
    });
    expect((await getAutomaticSettlement(m.business.id, m.store.id))?.lastRunOn).toBe(today());

    // More money comes in; the worker runs again the same hour (a retry, a doubled tick): nothing moves.
    await creditStore(m.store.id, 300_000);
    await settleAutomatically();
    expect(await available(m)).toBe(795_000);
    // A run that missed the day's mark still pays nothing: the day's reference is claimed.
    const setting = await getAutomaticSettlement(m.business.id, m.store.id);
    expect(
      await settleStore({ ...(setting as NonNullable<typeof setting>), lastRunOn: undefined }, today()),
    ).toBe('already_done');
    expect(await available(m)).toBe(795_000);
  });

  it('skips a cooling account, a removed one, and a balance under the smallest withdrawal', async () => {
    const cooling = await merchant();
    await creditStore(cooling.store.id, 1_000_000);
    const coolingAccount = await waveAccount(cooling, new Date(Date.now() + 3_600_000));
    await setFor(cooling, coolingAccount, thisHour(), 0);

    const removed = await merchant();
    await creditStore(removed.store.id, 1_000_000);
    const removedAccount = await waveAccount(removed, new Date(Date.now() - 60_000));
    await setFor(removed, removedAccount, thisHour(), 0);
    await removePayoutAccountRecord(removedAccount);

    const short = await merchant();
    await creditStore(short.store.id, 600_000);
    const shortAccount = await waveAccount(short, new Date(Date.now() - 60_000));
    // 6,000 F less 5,998 F kept: 2 F, under the smallest withdrawal (5 F).
    await setFor(short, shortAccount, thisHour(), 599_800);

    await settleAutomatically();
    expect(await available(cooling)).toBe(1_000_000);
    expect(await transferOfTheDay(cooling)).toBeUndefined();
    expect(await available(removed)).toBe(1_000_000);
    expect(await available(short)).toBe(600_000);
    // Dealt with for the day: a later run does not try them again.
    expect((await getAutomaticSettlement(removed.business.id, removed.store.id))?.lastRunOn).toBe(today());
    expect((await getAutomaticSettlement(short.business.id, short.store.id))?.lastRunOn).toBe(today());
    // The cooling one is tried again by the next runs of its window: usable meanwhile, it is paid.
    const setting = await getAutomaticSettlement(cooling.business.id, cooling.store.id);
    expect(setting?.lastRunOn).toBeUndefined();
    expect(await settleStore(setting as NonNullable<typeof setting>, today())).toBe('account_cooling');
    await documentClient.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: payoutAccountKey(cooling.business.id, coolingAccount.id),
        UpdateExpression: 'SET usableFrom = :past',
        ExpressionAttributeValues: { ':past': new Date(Date.now() - 1_000).toISOString() },
      }),
    );
    await settleAutomatically();
    const paid = await transferOfTheDay(cooling);
    // Everything (nothing kept), less the fee: the withdrawal's own "everything available".
    expect(paid).toMatchObject({
      payoutAccountId: coolingAccount.id,
      amountCents: withdrawableCents(1_000_000, 'wave'),
    });
    expect(await available(cooling)).toBe(1_000_000 - (paid?.amountCents ?? 0) - (paid?.feeCents ?? 0));
    expect(await available(short)).toBe(600_000);
  });

  it('reads only the settings that are on at this hour', async () => {
    const m = await merchant();
    await creditStore(m.store.id, 1_000_000);
    const account = await waveAccount(m, new Date(Date.now() - 60_000));
    const otherHour = (thisHour() + 12) % 24;
    await setFor(m, account, otherHour, 0);
    await settleAutomatically();
    expect(await available(m)).toBe(1_000_000);
    expect((await automaticSettlementsAt(otherHour)).settings.map((each) => each.storeId)).toContain(
      m.store.id,
    );

    await setFor(m, account, thisHour(), 0);
    await turnOffAutomaticSettlement(actingOwnerOf(m), m.store.id, { sourceIp: '127.0.0.1' });
    expect((await automaticSettlementsAt(thisHour())).settings.map((each) => each.storeId)).not.toContain(
      m.store.id,
    );
    await settleAutomatically();
    expect(await available(m)).toBe(1_000_000);
    expect(await getAutomaticSettlement(m.business.id, m.store.id)).toMatchObject({
      enabled: false,
      hour: thisHour(),
    });
  });

  it('refuses another business’s store or account, and reads the owner’s form', async () => {
    const m = await merchant();
    const other = await merchant();
    const theirs = await waveAccount(other, new Date());
    await expect(setFor(m, theirs, 3, 0)).rejects.toBeInstanceOf(PayoutAccountNotFound);
    const mine = await waveAccount(m, new Date());
    await expect(
      setAutomaticSettlement(
        actingOwnerOf(m),
        { storeId: other.store.id, payoutAccountId: mine.id, hour: 3, keepCents: 0 },
        { baseUrl, sourceIp: '127.0.0.1' },
      ),
    ).rejects.toBeInstanceOf(StoreNotFound);
    expect(await getAutomaticSettlement(m.business.id, other.store.id)).toBeUndefined();

    expect(
      readAutomaticSettlementForm({ storeId: 's', payoutAccountId: 'a', hour: '7', keep: '50 000' }),
    ).toEqual({
      setting: { storeId: 's', payoutAccountId: 'a', hour: 7, keepCents: 5_000_000 },
    });
    expect(
      readAutomaticSettlementForm({ storeId: 's', payoutAccountId: 'a', hour: '24', keep: 'beaucoup' }),
    ).toEqual({
      problems: [
        { field: 'hour', rule: 'required' },
        { field: 'keep', rule: 'format' },
      ],
    });
    // Turned off without a setting: nothing written.
    await turnOffAutomaticSettlement(actingOwnerOf(m), m.store.id, { sourceIp: '127.0.0.1' });
    expect(await getAutomaticSettlement(m.business.id, m.store.id)).toBeUndefined();
  });
});
