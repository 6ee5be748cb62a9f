import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '#shared/aws/dynamodb.ts';
import { type TransactionRecord, transactionDay } from '#shared/data/transaction-record.ts';

/**
 * The transaction list: newest first, `page`/`limit`, `total`, over at most 91 days, at a cost
 * that does not grow with the merchant's history (DESIGN §4).
 *
 * - `total` is the sum of the day counters of the range: one query over at most 91 items for a
 *   store, 91 per store for a business (shared/data/transaction-record.ts).
 * - Page N starts at offset (N − 1) × limit from the newest item. The counters say which day, and
 *   within it which hour, that offset falls in; the records are then read from that hour down,
 *   skipping only the earlier items of that one hour.
 * - Everything is as of an instant `asOf`: items created later are neither counted nor listed,
 *   so pages read one after the other neither repeat nor miss an item while payments arrive.
 *
 * Cost (eventually consistent): counters ~0.5 RCU per 8 days of range and store; records ~0.5 RCU per
 * 4 KB read (a page of 100 is ~10 RCU), plus the skipped items of the starting hour.
 */
export interface TransactionListQuery {
  /** A business id, or a store id with `byStore`. */
  owner: string;
  byStore: boolean;
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

interface DayCount {
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
 * A store's day counters, or a business's: the sum, day by day and hour by hour, of its stores'
 * (read from the index, where each store's counter of a day sits under the business).
 */
async function dayCounts(
  query: TransactionListQuery,
  startDate: string,
  endDate: string,
): Promise<DayCount[]> {
  const days = new Map<string, DayCount>();
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await documentClient.send(
      new QueryCommand(
        query.byStore
          ? {
              TableName: tableName(),
              KeyConditionExpression: 'pk = :pk AND sk BETWEEN :start AND :end',
              ExpressionAttributeValues: {
                ':pk': `TXCOUNT#${query.owner}`,
                ':start': startDate,
                ':end': endDate,
              },
              ExclusiveStartKey: startKey,
            }
          : {
              TableName: tableName(),
              IndexName: 'gsi1',
              KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk BETWEEN :start AND :end',
              ExpressionAttributeValues: {
                ':pk': `TXCOUNT#${query.owner}`,
                ':start': startDate,
                ':end': `${endDate}#~`,
              },
              ExclusiveStartKey: startKey,
            },
      ),
    );
    for (const item of page.Items ?? []) {
      const day = item.sk as string;
      const counted = days.get(day) ?? { day, count: 0, hours: hours.map(() => 0) };
      counted.count += Number(item.count ?? 0);
      counted.hours = counted.hours.map((sum, index) => sum + Number(item[`h${hours[index]}`] ?? 0));
      days.set(day, counted);
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return [...days.values()];
}

/** A day's records, newest first: those after a bound, or up to `take` at or before one. */
async function readDay(
  query: TransactionListQuery,
  day: string,
  range: { after: string } | { atOrBefore: string; take: number },
): Promise<TransactionRecord[]> {
  const [pkName, skName, index] = query.byStore ? ['gsi1pk', 'gsi1sk', 'gsi1'] : ['pk', 'sk', undefined];
  const after = 'after' in range;
  const items: TransactionRecord[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const input: QueryCommandInput = {
      TableName: tableName(),
      IndexName: index,
      KeyConditionExpression: after ? '#pk = :pk AND #sk > :bound' : '#pk = :pk AND #sk <= :bound',
      ExpressionAttributeNames: { '#pk': pkName, '#sk': skName },
      ExpressionAttributeValues: {
        ':pk': `TXDAY#${query.owner}#${day}`,
        ':bound': after ? range.after : range.atOrBefore,
      },
      ScanIndexForward: false,
      ExclusiveStartKey: startKey,
      ...(after ? {} : { Limit: range.take - items.length }),
    };
    const page = await documentClient.send(new QueryCommand(input));
    for (const item of page.Items ?? []) items.push(toRecord(item));
    startKey = page.LastEvaluatedKey;
  } while (startKey && (after || items.length < (range as { take: number }).take));
  return items;
}

function toRecord(item: Record<string, unknown>): TransactionRecord {
  const { pk: _pk, sk: _sk, gsi1pk: _gpk, gsi1sk: _gsk, entity: _entity, ...record } = item;
  return record as unknown as TransactionRecord;
}
