import { beforeAll, describe, expect, it } from 'vitest';
import {
  moneyMovedBy,
  type TransactionRecord,
  transactionRecordsWrites,
  transactionSettledWrites,
} from '#shared/data/transaction-record.ts';
import { storeAmounts } from '#shared/domain/wallet.ts';
import { dayBarChart } from '#shared/pages/day-chart.ts';

beforeAll(() => {
  process.env.TABLE_NAME = 'unit';
});

const line = (overrides: Partial<TransactionRecord>): TransactionRecord => ({
  id: 'line',
  businessId: 'business',
  storeId: 'store',
  type: 'payment',
  status: 'success',
  amount: { amount: 10_000, currency: 'XOF' },
  fees: { amount: 100, currency: 'XOF' },
  currency: 'XOF',
  paymentMethod: 'wave',
  counterpartLabel: 'Client',
  counterpartIdentifier: '+2250700000001',
  description: 'Payment',
  reference: 'ref',
  createdAt: '2026-11-27T10:15:00.000Z',
  ...overrides,
});

const counterUpdates = (writes: ReturnType<typeof transactionRecordsWrites>) =>
  writes.flatMap((write) => (write.write.Update ? [write.write.Update] : []));

describe('the money a line adds to its day', () => {
  it('names a payment collected, a refund and an escrow’s payback refunded, a transfer paid out, a release nothing', () => {
    expect(moneyMovedBy({ type: 'payment' })).toBe('collected');
    expect(moneyMovedBy({ type: 'refund' })).toBe('refunded');
    expect(moneyMovedBy({ type: 'transfer', escrowId: 'escrow' })).toBe('refunded');
    expect(moneyMovedBy({ type: 'transfer' })).toBe('paidOut');
    expect(moneyMovedBy({ type: 'escrow' })).toBeUndefined();
  });

  it('adds a successful line’s amount with its count, a pending or failed one’s count only', () => {
    const [paid] = counterUpdates(transactionRecordsWrites([line({})]));
    expect(paid?.UpdateExpression).toContain('#collected :collected');
    expect(paid?.ExpressionAttributeValues).toMatchObject({
      ':one': 1,
      ':collected': 10_000,
      ':collectedCount': 1,
    });
    for (const status of ['pending', 'error'] as const) {
      const [update] = counterUpdates(transactionRecordsWrites([line({ type: 'transfer', status })]));
      expect(update?.UpdateExpression).toBe('ADD #count :one, #hour :one SET entity = :entity');
    }
  });

  it('adds two lines of one store, day and hour to one counter, money summed', () => {
    const updates = counterUpdates(
      transactionRecordsWrites([
        line({ id: 'a' }),
        line({ id: 'b', amount: { amount: 5_000, currency: 'XOF' } }),
      ]),
    );
    expect(updates).toHaveLength(1);
    expect(updates[0]?.ExpressionAttributeValues).toMatchObject({
      ':one': 2,
      ':collected': 15_000,
      ':collectedCount': 2,
    });
  });

  it('settles a pending line: its status, and on success its money on the day it is listed under', () => {
    const pending = { ...line({ type: 'refund', status: 'pending' }), createdAt: '2026-11-26T23:59:00.000Z' };
    const success = transactionSettledWrites(pending, 'success');
    expect(success).toHaveLength(2);
    expect(success[1]?.write.Update).toMatchObject({
      Key: { pk: 'TXCOUNT#store', sk: '2026-11-26' },
      UpdateExpression: 'ADD #refunded :refunded, #refundedCount :refundedCount SET entity = :entity',
      ExpressionAttributeValues: { ':refunded': 10_000, ':refundedCount': 1 },
    });
    expect(transactionSettledWrites(pending, 'error')).toHaveLength(1);
  });
});

describe('a store’s amounts', () => {
  it('splits the wallets into available (the API’s balance), held and reserved, adding up to their totals', () => {
    const amounts = storeAmounts([
      { kind: 'operating', total: 100_000, blocked: 30_000 },
      { kind: 'escrow', total: 50_000, blocked: 20_000 },
    ]);
    expect(amounts).toEqual({ available: 70_000, held: 30_000, reserved: 50_000 });
  });
});

describe('the day chart', () => {
  const days = Array.from({ length: 30 }, (_, index) => ({
    day: `2026-11-${String(index + 1).padStart(2, '0')}`,
    cents: index === 26 ? 350_000 : 0,
  }));

  it('is one named image, described by its range, total and best day, with the figures as a table', () => {
    const chart = dayBarChart({
      language: 'fr',
      id: 'chart-0',
      title: 'Encaissé <par> jour',
      valueLabel: 'Encaissé',
      days,
      currency: 'XOF',
    }).toString();
    expect(chart).toContain('role="img" aria-labelledby="chart-0-title chart-0-desc"');
    expect(chart).toContain('<title id="chart-0-title">Encaissé &lt;par&gt; jour</title>');
    expect(chart).toMatch(
      /<desc id="chart-0-desc">du 01\/11 au 30\/11 Total : 3\s500\sF\sCFA\. Meilleur jour : 3\s500\sF\sCFA, le 27\/11\.<\/desc>/,
    );
    expect(chart.match(/<rect /g)).toHaveLength(30);
    expect(chart.match(/<tr><td>/g)).toHaveLength(30);
    expect(chart).not.toContain('<script');
  });

  it('says there was nothing when every day is zero, and draws no bar taller than none', () => {
    const chart = dayBarChart({
      language: 'en',
      id: 'c',
      title: 'Collected',
      valueLabel: 'Collected',
      days: days.map((day) => ({ ...day, cents: 0 })),
      currency: 'XOF',
    }).toString();
    expect(chart).toContain('Nothing on those days.');
    expect(chart).not.toMatch(/height="[1-9]/);
  });
});
