import { randomUUID } from 'node:crypto';
import { measureUnits, medianMs, useBenchTable } from '#test/bench/bench-dynamodb.ts';
import type { Bench } from '#test/bench/report.ts';

/** Histories of these sizes, spread evenly over the 90 days of the query. */
const historySizes = [1_000, 10_000, 100_000];
const rangeDays = 90;
const limit = 100;
const timedRuns = 5;

const dayMs = 24 * 60 * 60 * 1000;

export interface ListCostRow {
  transactions: number;
  page: string;
  readUnits: number;
  requests: number;
  medianMs: number;
}

/**
 * What one page of the transaction list costs as the history grows: the first and the last page
 * of a 90-day query of one store, at 1,000, 10,000 and 100,000 transactions. The records and
 * counters are seeded directly with batch writes in the layout the completion writes (far faster
 * than completing 100,000 payments), then listed through the product code.
 */
async function measureListCost(): Promise<ListCostRow[]> {
  const rows: ListCostRow[] = [];
  const { listTransactions } = await import('#shared/data/transaction-list.ts');
  const end = Date.parse('2026-10-31T23:59:59.000Z');
  const start = end - rangeDays * dayMs + 1000;
  for (const size of historySizes) {
    await useBenchTable(`bench-list-${size}`);
    const businessId = randomUUID();
    const storeId = randomUUID();
    const { benchOrderLine, writeTransactionHistory } = await import('#test/support/transaction-history.ts');
    await writeTransactionHistory(
      Array.from({ length: size }, (_, i) =>
        benchOrderLine(i, {
          businessId,
          storeId,
          createdAt: new Date(start + Math.floor(((end - start) * i) / size)).toISOString(),
        }),
      ),
    );
    const lastPage = Math.ceil(size / limit);
    for (const [label, page] of [
      ['page 1', 1],
      [`last page (${lastPage})`, lastPage],
    ] as const) {
      const query = {
        businessId,
        storeId,
        startDate: new Date(start).toISOString().slice(0, 10),
        endDate: new Date(end).toISOString().slice(0, 10),
        page,
        limit,
        asOf: new Date(end + dayMs).toISOString(),
      };
      const { result, units } = await measureUnits(() => listTransactions(query));
      if (result.total !== size) throw new Error(`listed a total of ${result.total}, seeded ${size}`);
      rows.push({
        transactions: size,
        page: label,
        readUnits: units.awsRead,
        requests: units.requests,
        medianMs: await medianMs(() => listTransactions(query), timedRuns),
      });
    }
  }
  return rows;
}

export const transactionList: Bench = async () => {
  const rows = await measureListCost();
  return {
    name: 'transactionList',
    title: `Transaction list, one store, a ${rangeDays}-day query, ${limit} a page: read units and local latency (median of ${timedRuns})`,
    columns: ['transactions', 'page', 'read units', 'requests', 'median ms'],
    rows: rows.map((r) => [r.transactions, r.page, r.readUnits, r.requests, r.medianMs]),
    data: rows,
  };
};
