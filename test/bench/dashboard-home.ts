import { randomUUID } from 'node:crypto';
import { BatchWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { measureUnits, medianMs, useBenchTable } from '#test/bench/bench-dynamodb.ts';
import type { Bench } from '#test/bench/report.ts';

/** Histories of these sizes, spread evenly over a year that ends at the home view's instant. */
const historySizes = [1_000, 100_000];
const historyDays = 365;
const timedRuns = 5;

const dayMs = 24 * 60 * 60 * 1000;

export interface HomeCostRow {
  transactions: number;
  readUnits: number;
  requests: number;
  medianMs: number;
}

/**
 * What the dashboard's home view reads as the history grows: a business of one store with 1,000
 * and then 100,000 transactions (payments, one in ten refunded, one in twenty paid out) over a
 * year. The records and their day counters, sums of money included, are seeded with batch writes
 * in the layout the completions write (far faster than completing 100,000 payments), then the
 * home view's figures are read through the product code: the overview (business, ceiling month)
 * and the money (stores, wallets, 30 day counters, the 10 latest lines).
 */
async function measureHomeCost(): Promise<HomeCostRow[]> {
  const rows: HomeCostRow[] = [];
  const { documentClient, tableName } = await import('#shared/aws/dynamodb.ts');
  const { createBusiness } = await import('#shared/data/business.ts');
  const { createStore } = await import('#shared/data/store.ts');
  const { businessOverview, homeMoney } = await import('#shared/operations/dashboard-overview.ts');
  const { benchOrderLine } = await import('#test/support/transaction-history.ts');
  const at = new Date(Date.parse('2026-10-31T18:00:00.000Z'));
  const end = at.getTime() - 60_000;
  const start = end - historyDays * dayMs;
  for (const size of historySizes) {
    await useBenchTable(`bench-home-${size}`);
    const { business, owner } = await createBusiness({
      name: 'Boutique Bench',
      apiAccessEnabled: true,
      isServiceProvider: false,
      verificationLevel: 1,
    });
    const store = await createStore({ businessId: business.id, name: 'Boutique Plateau' });
    const counters = new Map<string, Record<string, number>>();
    const items = Array.from({ length: size }, (_, i) => {
      const createdAt = new Date(start + Math.floor(((end - start) * i) / size)).toISOString();
      const day = createdAt.slice(0, 10);
      const type = i % 10 === 9 ? 'refund' : i % 20 === 4 ? 'transfer' : 'payment';
      const amount = type === 'payment' ? 150_000 : 50_000;
      const movement = type === 'payment' ? 'collected' : type === 'refund' ? 'refunded' : 'paidOut';
      const counter = counters.get(day) ?? { count: 0 };
      const hour = `h${createdAt.slice(11, 13)}`;
      counter.count = (counter.count ?? 0) + 1;
      counter[hour] = (counter[hour] ?? 0) + 1;
      counter[movement] = (counter[movement] ?? 0) + amount;
      counter[`${movement}Count`] = (counter[`${movement}Count`] ?? 0) + 1;
      counters.set(day, counter);
      const line = benchOrderLine(i, {
        businessId: business.id,
        storeId: store.id,
        createdAt,
        type,
        amount,
      });
      return {
        pk: `TXDAY#${business.id}#${day}`,
        sk: `${createdAt}#${line.id}`,
        entity: 'transaction',
        ...line,
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
    const days = [...counters];
    for (let i = 0; i < days.length; i += 50) {
      await Promise.all(
        days.slice(i, i + 50).map(([day, counter]) => {
          const entries = Object.entries(counter);
          return documentClient.send(
            new UpdateCommand({
              TableName: tableName(),
              Key: { pk: `TXCOUNT#${store.id}`, sk: day },
              UpdateExpression: `SET entity = :entity, ${entries.map((_, index) => `#a${index} = :v${index}`).join(', ')}`,
              ExpressionAttributeNames: Object.fromEntries(
                entries.map(([name], index) => [`#a${index}`, name]),
              ),
              ExpressionAttributeValues: {
                ':entity': 'transaction_counter',
                ...Object.fromEntries(entries.map(([, value], index) => [`:v${index}`, value])),
              },
            }),
          );
        }),
      );
    }
    const member = {
      businessId: business.id,
      businessName: business.name,
      memberId: owner.id,
      userId: randomUUID(),
      role: 'owner' as const,
      isServiceProvider: false,
      verificationLevel: 1,
    };
    const view = () => Promise.all([businessOverview(member, at), homeMoney(member, at)]);
    const { result, units } = await measureUnits(view);
    const [, money] = result;
    if (money.latest.length !== 10)
      throw new Error(`home listed ${money.latest.length} latest lines, not 10`);
    const expected = [...counters]
      .filter(([day]) => day >= money.firstDay)
      .reduce((sum, [, counter]) => sum + (counter.collected ?? 0), 0);
    const collected = money.stores[0]?.lastDays.collected.cents;
    if (collected !== expected)
      throw new Error(`home shows ${collected} collected in 30 days, seeded ${expected}`);
    rows.push({
      transactions: size,
      readUnits: units.awsRead,
      requests: units.requests,
      medianMs: await medianMs(view, timedRuns),
    });
  }
  return rows;
}

export const dashboardHome: Bench = async () => {
  const rows = await measureHomeCost();
  return {
    name: 'dashboardHome',
    title: `Dashboard home, one store, ${historyDays} days of history: read units and local latency (median of ${timedRuns})`,
    columns: ['transactions', 'read units', 'requests', 'median ms'],
    rows: rows.map((r) => [r.transactions, r.readUnits, r.requests, r.medianMs]),
    data: rows,
  };
};
