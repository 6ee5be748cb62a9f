import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '#shared/aws/dynamodb.ts';
import { type TransactionRecord, transactionDay } from '#shared/data/transaction-record.ts';

/**
 * The transaction list: newest first, `page`/`limit`, `total`, over at most 91 days, at a cost
 * that does not grow with the merchant's history (DESIGN §4).
 *
 * - `total` is the sum of the day counters of the range: one query over at most 91 items per
 *   store, the business's stores queried at once (shared/data/transaction-record.ts).
 * - Page N starts at offset (N − 1) × limit from the newest item. The counters say which day, and
 *   within it which hour, that offset falls in; the records are then read from that hour down,
 *   skipping only the earlier items of that one hour.
 * - Everything is as of an instant `asOf`: items created later are neither counted nor listed,
 *   so pages read one after the other neither repeat nor miss an item while payments arrive.
 *
 * - Records sit in their business's day partition only (no store index, which cost a write unit on
 *   every record): a store's list reads the business's records of the hours its page covers and
 *   keeps the store's, so it reads what the whole business recorded in those hours.
 *
 * Cost (eventually consistent): counters ~0.5 RCU per 8 days of range and store (at least 0.5 per
 * store); records ~0.5 RCU per 4 KB read (a page of 100 is ~10 RCU), plus the skipped items of the
 * starting hour, and for a store's list the other stores' records of the hours read.
 */
export interface TransactionListQuery {
  businessId: string;
  /** One store's list; absent, the business's. */
  storeId?: string | undefined;
  /** The business's stores, whose day counters add up to the business's (for the business's list). */
  storeIds?: readonly string[] | undefined;
  startDate: string;
  endDate: string;
  page: number;
  limit: number;
  /** ISO instant; only items created at or before it are listed. */
  asOf: string;
}

export interface TransactionListPage {
  total: number;
  items: TransactionRecord[];
}

export interface DayCount {
  day: string;
  count: number;
  hours: number[];
}

const hours = Array.from({ length: 24 }, (_, hour) => String(hour).padStart(2, '0'));

/** Sort keys are `<createdAt>#<id>`; `~` sorts after every id character. */
const sortKeyBound = (instant: string) => `${instant}#~`;

export async function listTransactions(query: TransactionListQuery): Promise<TransactionListPage> {
  const asOfDay = transactionDay(query.asOf);
  const lastDay = query.endDate < asOfDay ? query.endDate : asOfDay;
  if (lastDay < query.startDate) return { total: 0, items: [] };

  const days = await dayCounts(query, query.startDate, lastDay);
  // The counters include what was created after `asOf` on its day: read those few and take
  // them off, hour by hour.
  const asOfCount = days.find((d) => d.day === asOfDay);
  if (asOfCount) {
    for (const item of await readDay(query, asOfDay, { after: sortKeyBound(query.asOf) })) {
      const hour = Number(item.createdAt.slice(11, 13));
      asOfCount.count--;
      asOfCount.hours[hour] = (asOfCount.hours[hour] ?? 0) - 1;
    }
  }
  const total = days.reduce((sum, d) => sum + d.count, 0);

  let skip = (query.page - 1) * query.limit;
  if (skip >= total) return { total, items: [] };
  // The counters say exactly which days the page covers and how much of each, so those days are
  // read at once rather than one after the other.
  const reads: { day: string; upper: string; skip: number; take: number }[] = [];
  let wanted = query.limit;
  for (const day of days.sort((a, b) => (a.day < b.day ? 1 : -1))) {
    if (wanted === 0) break;
    if (day.count === 0) continue;
    if (skip >= day.count) {
      skip -= day.count;
      continue;
    }
    // Seek to the hour the page starts in; only that hour's newer items are read and dropped.
    let remainingInDay = day.count;
    let upperHour = 23;
    while (upperHour > 0 && skip >= (day.hours[upperHour] ?? 0)) {
      skip -= day.hours[upperHour] ?? 0;
      remainingInDay -= day.hours[upperHour] ?? 0;
      upperHour--;
    }
    const hourEnd = `${day.day}T${hours[upperHour]}:59:59.999Z`;
    const upper = day.day === asOfDay && query.asOf < hourEnd ? query.asOf : hourEnd;
    const take = Math.min(wanted, remainingInDay - skip);
    reads.push({ day: day.day, upper, skip, take });
    wanted -= take;
    skip = 0;
  }
  const pages = await Promise.all(
    reads.map(async (read) =>
      (
        await readDay(query, read.day, { atOrBefore: sortKeyBound(read.upper), take: read.skip + read.take })
      ).slice(read.skip),
    ),
  );
  return { total, items: pages.flat().slice(0, query.limit) };
}

/**
 * A store's day counters, or a business's: the sum, day by day and hour by hour, of its stores',
 * each store's queried at once.
 */
export async function dayCounts(
  query: Pick<TransactionListQuery, 'storeId' | 'storeIds'>,
  startDate: string,
  endDate: string,
): Promise<DayCount[]> {
  const stores = query.storeId !== undefined ? [query.storeId] : (query.storeIds ?? []);
  const days = new Map<string, DayCount>();
  const counters = await Promise.all(stores.map((storeId) => storeCounters(storeId, startDate, endDate)));
  for (const item of counters.flat()) {
    const day = item.sk as string;
    const counted = days.get(day) ?? { day, count: 0, hours: hours.map(() => 0) };
    counted.count += Number(item.count ?? 0);
    counted.hours = counted.hours.map((sum, index) => sum + Number(item[`h${hours[index]}`] ?? 0));
    days.set(day, counted);
  }
  return [...days.values()];
}

async function storeCounters(storeId: string, startDate: string, endDate: string) {
  const items: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await documentClient.send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :start AND :end',
        ExpressionAttributeValues: { ':pk': `TXCOUNT#${storeId}`, ':start': startDate, ':end': endDate },
        ExclusiveStartKey: startKey,
      }),
    );
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return items;
}

/**
 * A day's records, newest first: those after a bound, or up to `take` at or before one. A store's
 * are read from its business's partition, the other stores' left out by a filter.
 */
async function readDay(
  query: TransactionListQuery,
  day: string,
  range: { after: string } | { atOrBefore: string; take: number },
): Promise<TransactionRecord[]> {
  const after = 'after' in range;
  const byStore = query.storeId !== undefined;
  const items: TransactionRecord[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const wanted = after ? undefined : range.take - items.length;
    const input: QueryCommandInput = {
      TableName: tableName(),
      KeyConditionExpression: after ? 'pk = :pk AND sk > :bound' : 'pk = :pk AND sk <= :bound',
      ExpressionAttributeValues: {
        ':pk': `TXDAY#${query.businessId}#${day}`,
        ':bound': after ? range.after : range.atOrBefore,
        ...(byStore ? { ':store': query.storeId } : {}),
      },
      ...(byStore ? { FilterExpression: 'storeId = :store' } : {}),
      ScanIndexForward: false,
      ExclusiveStartKey: startKey,
      // A filtered page may keep few of what it reads: after a first page of what the store still
      // needs (all of it when the store is its business's only one), read more at a time.
      ...(wanted === undefined ? {} : { Limit: byStore && startKey ? Math.max(wanted, 100) : wanted }),
    };
    const page = await documentClient.send(new QueryCommand(input));
    for (const item of page.Items ?? []) items.push(toRecord(item));
    startKey = page.LastEvaluatedKey;
  } while (startKey && (after || items.length < (range as { take: number }).take));
  return after ? items : items.slice(0, range.take);
}

export function toRecord(item: Record<string, unknown>): TransactionRecord {
  const { pk: _pk, sk: _sk, gsi1pk: _gpk, gsi1sk: _gsk, entity: _entity, ...record } = item;
  return record as unknown as TransactionRecord;
}
