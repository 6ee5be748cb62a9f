import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { transactWrite } from '#shared/data/transact.ts';
import { listTransactions } from '#shared/data/transaction-list.ts';
import { type TransactionRecord, transactionRecordWrites } from '#shared/data/transaction-record.ts';

const hourMs = 60 * 60 * 1000;

function record(
  businessId: string,
  storeId: string,
  createdAt: string,
  id = randomUUID(),
): TransactionRecord {
  return {
    id,
    businessId,
    storeId,
    type: 'payment',
    status: 'success',
    amount: { amount: 10_000, currency: 'XOF' },
    fees: { amount: 100, currency: 'XOF' },
    currency: 'XOF',
    paymentMethod: 'wave',
    counterpartLabel: 'Client',
    counterpartIdentifier: '+2250700000001',
    description: 'Payment',
    reference: `ref-${id}`,
    createdAt,
  };
}

async function seed(records: TransactionRecord[]) {
  for (let i = 0; i < records.length; i += 20) {
    await Promise.all(records.slice(i, i + 20).map((r) => transactWrite(transactionRecordWrites(r))));
  }
}

/** What the list must answer: every record in range and not after asOf, newest first, sliced. */
function expected(
  records: TransactionRecord[],
  q: { startDate: string; endDate: string; page: number; limit: number; asOf: string },
) {
  const inRange = records
    .filter(
      (r) =>
        r.createdAt.slice(0, 10) >= q.startDate &&
        r.createdAt.slice(0, 10) <= q.endDate &&
        r.createdAt <= q.asOf,
    )
    .sort((a, b) => (`${a.createdAt}#${a.id}` < `${b.createdAt}#${b.id}` ? 1 : -1));
  return {
    total: inRange.length,
    ids: inRange.slice((q.page - 1) * q.limit, q.page * q.limit).map((r) => r.id),
  };
}

const base = Date.parse('2026-06-15T12:00:00.000Z');

describe('the transaction list', () => {
  it('pages 250 records as 100, 100 and 50, newest first, each once', async () => {
    const businessId = randomUUID();
    const storeId = randomUUID();
    const records = Array.from({ length: 250 }, (_, i) =>
      record(businessId, storeId, new Date(base - i * 37 * 60 * 1000).toISOString()),
    );
    await seed(records);
    const query = {
      businessId,
      storeIds: [storeId],
      startDate: '2026-06-01',
      endDate: '2026-06-30',
      limit: 100,
      asOf: new Date(base + hourMs).toISOString(),
    };
    const pages = await Promise.all([1, 2, 3, 4].map((page) => listTransactions({ ...query, page })));
    expect(pages.map((p) => p.items.length)).toEqual([100, 100, 50, 0]);
    expect(pages.every((p) => p.total === 250)).toBe(true);
    const ids = pages.flatMap((p) => p.items.map((item) => item.id));
    expect(new Set(ids).size).toBe(250);
    expect(ids).toEqual(records.map((r) => r.id));
  });

  it('neither repeats nor misses an item when payments arrive between pages', async () => {
    const businessId = randomUUID();
    const now = Date.now();
    const records = Array.from({ length: 30 }, (_, i) =>
      record(businessId, 'store', new Date(now - i * 1000).toISOString()),
    );
    await seed(records);
    const asOf = new Date(now + 10).toISOString();
    const today = asOf.slice(0, 10);
    const query = {
      businessId,
      storeIds: ['store'],
      startDate: '2026-01-01',
      endDate: today,
      limit: 12,
      asOf,
    };
    const first = await listTransactions({ ...query, page: 1 });
    await new Promise((resolve) => setTimeout(resolve, 20));
    await seed(Array.from({ length: 5 }, () => record(businessId, 'store', new Date().toISOString())));
    const rest = [
      await listTransactions({ ...query, page: 2 }),
      await listTransactions({ ...query, page: 3 }),
    ];
    const ids = [first, ...rest].flatMap((p) => p.items.map((item) => item.id));
    expect(ids).toEqual(records.map((r) => r.id));
    expect(rest.every((p) => p.total === 30)).toBe(true);
  });

  it('orders records with the same timestamp by id, stably across pages', async () => {
    const businessId = randomUUID();
    const at = new Date(base).toISOString();
    const records = Array.from({ length: 10 }, () => record(businessId, 'store', at));
    await seed(records);
    const query = {
      businessId,
      storeIds: ['store'],
      startDate: '2026-06-15',
      endDate: '2026-06-15',
      limit: 3,
      asOf: new Date(base + 1).toISOString(),
    };
    const ids: string[] = [];
    for (let page = 1; page <= 4; page++)
      ids.push(...(await listTransactions({ ...query, page })).items.map((i) => i.id));
    expect(ids).toEqual(
      records
        .map((r) => r.id)
        .sort()
        .reverse(),
    );
  });

  it("lists one store from its business's records, and only the date range asked", async () => {
    const businessId = randomUUID();
    const [storeA, storeB] = [randomUUID(), randomUUID()];
    const records = [
      record(businessId, storeA, '2026-06-10T08:00:00.000Z'),
      record(businessId, storeB, '2026-06-10T09:00:00.000Z'),
      record(businessId, storeA, '2026-06-12T10:00:00.000Z'),
      record(businessId, storeA, '2026-06-20T10:00:00.000Z'),
    ];
    await seed(records);
    const page = await listTransactions({
      businessId,
      storeId: storeA,
      startDate: '2026-06-01',
      endDate: '2026-06-15',
      page: 1,
      limit: 100,
      asOf: '2026-07-01T00:00:00.000Z',
    });
    expect(page.total).toBe(2);
    expect(page.items.map((i) => i.id)).toEqual([records[2]?.id, records[0]?.id]);
  });

  it('answers exactly what sorting and slicing everything would, for any history and page, for the business and each store (property)', async () => {
    const businessId = randomUUID();
    const start = Date.parse('2026-03-01T00:00:00.000Z');
    const offsets = fc.array(fc.integer({ min: 0, max: 20 * 24 * 60 }), { minLength: 0, maxLength: 120 });
    const [minutes] = fc.sample(offsets, { numRuns: 1, seed: 42 });
    // Three stores: the business's counters are the sum of its stores'.
    const stores = [randomUUID(), randomUUID(), randomUUID()];
    const records = (minutes ?? []).map((m, index) =>
      record(businessId, stores[index % stores.length] as string, new Date(start + m * 60_000).toISOString()),
    );
    await seed(records);
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 19 }),
        fc.integer({ min: 0, max: 19 }),
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 1, max: 30 }),
        fc.integer({ min: 0, max: 20 * 24 * 60 }),
        async (a, b, page, limit, asOfMinute) => {
          const day = (d: number) => new Date(start + d * 24 * hourMs).toISOString().slice(0, 10);
          const q = {
            startDate: day(Math.min(a, b)),
            endDate: day(Math.max(a, b)),
            page,
            limit,
            asOf: new Date(start + asOfMinute * 60_000).toISOString(),
          };
          const got = await listTransactions({ businessId, storeIds: stores, ...q });
          const want = expected(records, q);
          expect(got.total).toBe(want.total);
          expect(got.items.map((i) => i.id)).toEqual(want.ids);
          // Each store's list, read from the business's records: the same answer as its records alone.
          const storeId = stores[page % stores.length] as string;
          const ofStore = await listTransactions({ businessId, storeId, ...q });
          const wantOfStore = expected(
            records.filter((r) => r.storeId === storeId),
            q,
          );
          expect(ofStore.total).toBe(wantOfStore.total);
          expect(ofStore.items.map((i) => i.id)).toEqual(wantOfStore.ids);
        },
      ),
      { numRuns: 60 },
    );
  });
});
