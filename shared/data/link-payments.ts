import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '#shared/aws/dynamodb.ts';
import { queryAll } from '#shared/data/query.ts';
import type { TransactionRecord } from '#shared/data/transaction-record.ts';

/**
 * The payments made through one link, as the transaction list keeps them: a payment's record
 * carries `transactionDetails.paymentLinkId`. Nothing is indexed by link (an index entry would cost
 * a write on every payment), so this reads the days of the link's store that have transactions
 * (its day counters), newest first, in the business's day partitions, keeping the link's records.
 *
 * Cost (eventually consistent): the store's counters over the window (~0.5 RCU per 8 days), then
 * per day read the business's records of that day (0.5 RCU per 4 KB, about 4 records), until
 * `limit` payments of the link are found or the window (at most `windowDays`) ends. A link's page
 * of a busy business therefore reads up to its whole window: it is a page a person opens, rarely.
 */
export const windowDays = 90;

export async function listLinkPayments(
  link: { businessId: string; storeId: string; id: string; createdAt: string },
  limit: number,
  now = new Date(),
): Promise<TransactionRecord[]> {
  const end = now.toISOString().slice(0, 10);
  const earliest = new Date(now.getTime() - windowDays * 86_400_000).toISOString().slice(0, 10);
  const created = link.createdAt.slice(0, 10);
  const start = created > earliest ? created : earliest;
  const counters = await queryAll({
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :start AND :end',
    ExpressionAttributeValues: { ':pk': `TXCOUNT#${link.storeId}`, ':start': start, ':end': end },
    ProjectionExpression: 'sk, #count',
    ExpressionAttributeNames: { '#count': 'count' },
  });
  const days = counters
    .filter((counter) => Number(counter.count ?? 0) > 0)
    .map((counter) => counter.sk as string)
    .sort()
    .reverse();
  const found: TransactionRecord[] = [];
  for (const day of days) {
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await documentClient.send(
        new QueryCommand({
          TableName: tableName(),
          KeyConditionExpression: 'pk = :pk',
          FilterExpression: '#details.#link = :link',
          ExpressionAttributeNames: { '#details': 'transactionDetails', '#link': 'paymentLinkId' },
          ExpressionAttributeValues: { ':pk': `TXDAY#${link.businessId}#${day}`, ':link': link.id },
          ScanIndexForward: false,
          ExclusiveStartKey: startKey,
        }),
      );
      found.push(...((page.Items ?? []) as unknown as TransactionRecord[]));
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    if (found.length >= limit) break;
  }
  return found.slice(0, limit);
}
