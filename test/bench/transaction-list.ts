import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { BatchWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { measureUnits, useBenchTable } from '#test/bench/bench-dynamodb.ts';
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
  const { documentClient, tableName } = await import('#shared/aws/dynamodb.ts');
  const { listTransactions } = await import('#shared/data/transaction-list.ts');
  const end = Date.parse('2026-10-31T23:59:59.000Z');
  const start = end - rangeDays * dayMs + 1000;
  for (const size of historySizes) {
    await useBenchTable(`bench-list-${size}`);
    const businessId = randomUUID();
    const storeId = randomUUID();
    const counts = new Map<string, Map<string, number>>();
    const items = Array.from({ length: size }, (_, i) => {
      const createdAt = new Date(start + Math.floor(((end - start) * i) / size)).toISOString();
      const day = createdAt.slice(0, 10);
      const hour = `h${createdAt.slice(11, 13)}`;
      const hours = counts.get(day) ?? new Map<string, number>();
      hours.set(hour, (hours.get(hour) ?? 0) + 1);
      counts.set(day, hours);
      const id = randomUUID();
      const sortKey = `${createdAt}#${id}`;
      return {
        pk: `TXDAY#${businessId}#${day}`,
        sk: sortKey,
        entity: 'transaction',
        id,
        businessId,
        storeId,
        type: 'payment',
        status: 'success',
        amount: { amount: 150_000, currency: 'XOF' },
        fees: { amount: 1_500, currency: 'XOF' },
        currency: 'XOF',
        paymentMethod: 'wave',
        counterpartLabel: 'Client Sandbox',
        counterpartIdentifier: '+2250700000001',
        description: `Payment order-${i}`,
        reference: `order-${i}`,
        createdAt,
        transactionDetails: { id: randomUUID(), reference: `order-${i}` },
        paymentRequestId: randomUUID(),
      };
    });
    for (let i = 0; i < items.length; i += 25 * 8) {
      await Promise.all(
        Array.from({ length: 8 }, (_, j) => items.slice(i + j * 25, i + (j + 1) * 25))
          .filter((batch) => batch.length > 0)
          .map((batch) =>
            documentClient.send(
              new BatchWriteCommand({
                RequestItems: { [tableName()]: batch.map((Item) => ({ PutRequest: { Item } })) },
              }),
            ),
          ),
      );
    }
    for (const [day, hours] of counts) {
      const names: Record<string, string> = { '#count': 'count' };
      const values: Record<string, number> = { ':count': [...hours.values()].reduce((a, b) => a + b, 0) };
      const sets = ['#count = :count'];
      for (const [hour, count] of hours) {
        names[`#${hour}`] = hour;
        values[`:${hour}`] = count;
        sets.push(`#${hour} = :${hour}`);
      }
      await documentClient.send(
        new UpdateCommand({
          TableName: tableName(),
          Key: { pk: `TXCOUNT#${storeId}`, sk: day },
          UpdateExpression: `SET ${sets.join(', ')}`,
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
        }),
      );
    }
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
      const times: number[] = [];
      for (let run = 0; run < timedRuns; run++) {
        const t = performance.now();
        await listTransactions(query);
        times.push(performance.now() - t);
      }
      times.sort((a, b) => a - b);
      rows.push({
        transactions: size,
        page: label,
        readUnits: units.awsRead,
        requests: units.requests,
        medianMs: times[2] ?? 0,
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
