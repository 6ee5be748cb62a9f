import { describe, expect, it } from 'vitest';
import { mergedSameItemUpdates } from '#shared/data/transact.ts';
import {
  accounts,
  escrowRefundPostings,
  escrowReleasePostings,
  paymentPostings,
  payoutPostings,
  storeTransferPostings,
} from '#shared/domain/ledger.ts';
import {
  deltaAttributes,
  monthDays,
  netOf,
  previousMonth,
  statementDayOf,
  storeDayDeltas,
} from '#shared/domain/statement.ts';

const at = '2026-11-30T23:59:59.999Z';
const entry = (
  kind: Parameters<typeof storeDayDeltas>[0]['kind'],
  postings: { account: string; amount: number }[],
) => ({
  id: `e-${kind}`,
  kind,
  createdAt: at,
  postings,
});

describe('a statement’s lines from journal entries', () => {
  it('reads a payment as collected in full and its fee apart, on the entry’s UTC day', () => {
    const [delta, ...others] = storeDayDeltas(
      entry(
        'payment',
        paymentPostings({
          businessId: 'b',
          storeId: 's',
          provider: 'wave',
          amount: 1_000_000,
          fee: 10_000,
          wallet: 'operating',
        }),
      ),
    );
    expect(others).toEqual([]);
    expect(delta).toMatchObject({
      storeId: 's',
      day: '2026-11-30',
      kind: 'payment',
      net: { operating: 990_000 },
    });
    expect(delta?.totals).toEqual({ in: 1_000_000, out: 0, fee: 10_000, count: 1 });
  });

  it('charges a transfer between two stores’ fee to the sender, and the receiver gets the amount', () => {
    const deltas = storeDayDeltas(
      entry(
        'transfer',
        storeTransferPostings({
          businessId: 'b',
          fromStoreId: 'a',
          toStoreId: 'c',
          amount: 500_000,
          fee: 5_000,
        }),
      ),
    );
    expect(deltas.map((d) => [d.storeId, d.totals])).toEqual([
      ['a', { in: 0, out: -500_000, fee: 5_000, count: 1 }],
      ['c', { in: 500_000, out: 0, fee: 0, count: 1 }],
    ]);
  });

  it('a withdrawal, an escrow’s release and its payback each net to what their wallets moved', () => {
    const cases = [
      entry(
        'withdrawal',
        payoutPostings({ businessId: 'b', storeId: 's', method: 'wave', amount: 300_000, fee: 3_000 }),
      ),
      entry('escrow', escrowReleasePostings({ businessId: 'b', storeId: 's', amount: 200_000 })),
      entry(
        'escrow',
        escrowRefundPostings({ businessId: 'b', storeId: 's', method: 'mtn', amount: 200_000, fees: 2_000 }),
      ),
      entry('sms', [
        { account: accounts.wallet('b', 's', 'operating'), amount: -2_500 },
        { account: 'platform:sms', amount: 2_500 },
      ]),
    ];
    for (const one of cases) {
      const [delta] = storeDayDeltas(one);
      const walletMoved = one.postings
        .filter((p) => p.account.startsWith('wallet:'))
        .reduce((sum, p) => sum + p.amount, 0);
      expect(netOf(delta?.totals ?? { in: 0, out: 0, fee: 0, count: 0 })).toBe(walletMoved);
      expect((delta?.net.operating ?? 0) + (delta?.net.escrow ?? 0)).toBe(walletMoved);
    }
    const [refunded] = storeDayDeltas(cases[2] as (typeof cases)[number]);
    // The payer gets the whole payment back: 200,000 out, the fee of 2,000 given back.
    expect(refunded?.totals).toEqual({ in: 0, out: -200_000, fee: -2_000, count: 1 });
  });

  it('reads back what it writes, zeros left out', () => {
    const [delta] = storeDayDeltas(
      entry('sms', [
        { account: accounts.wallet('b', 's', 'operating'), amount: -2_500 },
        { account: 'platform:sms', amount: 2_500 },
      ]),
    );
    const attributes = deltaAttributes(delta as NonNullable<typeof delta>);
    expect(attributes).toEqual({ 'st:sms:out': -2_500, 'st:sms:n': 1, 'st:net:operating': -2_500 });
    const day = statementDayOf('2026-11-30', attributes);
    expect(day.kinds.sms).toEqual({ in: 0, out: -2_500, fee: 0, count: 1 });
    expect(day.net).toEqual({ operating: -2_500, escrow: 0 });
  });

  it('months are calendar months of UTC days', () => {
    expect(monthDays('2028-02')).toEqual({ first: '2028-02-01', last: '2028-02-29' });
    expect(monthDays('2026-11')).toEqual({ first: '2026-11-01', last: '2026-11-30' });
    expect(previousMonth('2027-01')).toBe('2026-12');
  });
});

describe('one transaction, one update of an item', () => {
  const update = (
    expression: string,
    names: Record<string, string>,
    values: Record<string, unknown>,
    condition?: string,
  ) => ({
    write: {
      Update: {
        TableName: 't',
        Key: { pk: 'TXCOUNT#s', sk: '2026-11-30' },
        UpdateExpression: expression,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ...(condition ? { ConditionExpression: condition } : {}),
      },
    },
  });

  it('merges two unconditional counter updates of one item, an identical clause kept once', () => {
    const merged = mergedSameItemUpdates([
      update(
        'ADD #count :one SET entity = :entity',
        { '#count': 'count' },
        { ':one': 1, ':entity': 'transaction_counter' },
      ),
      update(
        'ADD #st0 :st0 SET entity = :entity',
        { '#st0': 'st:payment:in' },
        { ':st0': 5, ':entity': 'transaction_counter' },
      ),
    ]);
    expect(merged).toHaveLength(1);
    expect(merged[0]?.write.Update?.UpdateExpression).toBe('SET entity = :entity ADD #count :one, #st0 :st0');
    expect(merged[0]?.write.Update?.ExpressionAttributeNames).toEqual({
      '#count': 'count',
      '#st0': 'st:payment:in',
    });
  });

  it('leaves conditional updates, or placeholders meaning two things, as they are', () => {
    const conditional = [
      update('ADD #a :a', { '#a': 'a' }, { ':a': 1 }, 'attribute_exists(pk)'),
      update('ADD #b :b', { '#b': 'b' }, { ':b': 1 }),
    ];
    expect(mergedSameItemUpdates(conditional)).toHaveLength(2);
    const clashing = [
      update('ADD #a :a', { '#a': 'a' }, { ':a': 1 }),
      update('ADD #a :a', { '#a': 'a' }, { ':a': 2 }),
    ];
    expect(mergedSameItemUpdates(clashing)).toHaveLength(2);
  });
});
