import { queryAll } from '#shared/data/query.ts';
import { moneyMovedBy, moneyMovements, type TransactionRecord } from '#shared/data/transaction-record.ts';

/**
 * A store's day counters against its transaction-list lines, day by day: the number of lines, and
 * for each movement the sum and count of the successful lines' amounts. Whatever the retries,
 * duplicates and races did, the counters must say exactly what the lines say.
 */
export async function dayTotalsMismatches(businessId: string, storeId: string): Promise<string[]> {
  const mismatches: string[] = [];
  const counters = await queryAll({
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': `TXCOUNT#${storeId}` },
    ConsistentRead: true,
  });
  for (const counter of counters) {
    const day = counter.sk as string;
    const lines = (
      (await queryAll({
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': `TXDAY#${businessId}#${day}` },
        ConsistentRead: true,
      })) as unknown as TransactionRecord[]
    ).filter((line) => line.storeId === storeId);
    if (Number(counter.count ?? 0) !== lines.length)
      mismatches.push(`day counter ${storeId} ${day}: ${counter.count} lines, the list has ${lines.length}`);
    for (const movement of moneyMovements) {
      const moved = lines.filter((line) => line.status === 'success' && moneyMovedBy(line) === movement);
      const cents = moved.reduce((sum, line) => sum + line.amount.amount, 0);
      const counted = [Number(counter[movement] ?? 0), Number(counter[`${movement}Count`] ?? 0)];
      if (counted[0] !== cents || counted[1] !== moved.length)
        mismatches.push(
          `day counter ${storeId} ${day}: ${movement} ${counted[0]} in ${counted[1]}, the successful lines ${cents} in ${moved.length}`,
        );
    }
  }
  return mismatches;
}
