import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '#shared/aws/dynamodb.ts';
import { queryAll } from '#shared/data/query.ts';
import {
  type MoneyMovement,
  moneyMovements,
  type TransactionRecord,
} from '#shared/data/transaction-record.ts';

/**
 * What a store's day counters (`TXCOUNT#<storeId>`, shared/data/transaction-record.ts) say of a
 * range of days: the lines listed each day and the money they moved once it moved. The counters
 * are kept as the money moves, so reading a month is one query of at most 31 small items per
 * store (~300 bytes each: about 1.5 read units), whatever the history.
 */
export interface DayTotals {
  /** `YYYY-MM-DD`, a UTC day, as the transaction list's days. */
  day: string;
  /** Lines listed that day, whatever their status. */
  lines: number;
  /** Cents per movement, and how many lines moved them. */
  money: Record<MoneyMovement, { cents: number; count: number }>;
}

export const noMoney = (): DayTotals['money'] => ({
  collected: { cents: 0, count: 0 },
  refunded: { cents: 0, count: 0 },
  paidOut: { cents: 0, count: 0 },
});

/** A store's counters from `firstDay` to `lastDay` (both included), the days without any left out. */
export async function storeDayTotals(
  storeId: string,
  firstDay: string,
  lastDay: string,
): Promise<DayTotals[]> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :first AND :last',
    ExpressionAttributeValues: { ':pk': `TXCOUNT#${storeId}`, ':first': firstDay, ':last': lastDay },
  });
  return items.map((item) => {
    const money = noMoney();
    for (const movement of moneyMovements) {
      money[movement] = {
        cents: Number(item[movement] ?? 0),
        count: Number(item[`${movement}Count`] ?? 0),
      };
    }
    return { day: item.sk as string, lines: Number(item.count ?? 0), money };
  });
}

/**
 * The `limit` newest lines of a business, newest first, from the days whose counters say they
 * hold lines (`linesByDay`, newest day first): each day read from its newest item, no more than
 * it still needs, all days at once. At most `limit` items are read in all.
 */
export async function latestLines(
  businessId: string,
  linesByDay: readonly { day: string; lines: number }[],
  limit: number,
): Promise<TransactionRecord[]> {
  const reads: { day: string; take: number }[] = [];
  let wanted = limit;
  for (const { day, lines } of linesByDay) {
    if (wanted <= 0) break;
    if (lines <= 0) continue;
    const take = Math.min(wanted, lines);
    reads.push({ day, take });
    wanted -= take;
  }
  const pages = await Promise.all(
    reads.map(async ({ day, take }) => {
      const page = await documentClient.send(
        new QueryCommand({
          TableName: tableName(),
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': `TXDAY#${businessId}#${day}` },
          ScanIndexForward: false,
          Limit: take,
        }),
      );
      return (page.Items ?? []).map(toRecord);
    }),
  );
  return pages.flat().slice(0, limit);
}

function toRecord(item: Record<string, unknown>): TransactionRecord {
  const { pk: _pk, sk: _sk, gsi1pk: _gpk, gsi1sk: _gsk, entity: _entity, ...record } = item;
  return record as unknown as TransactionRecord;
}
