import { randomUUID } from 'node:crypto';
import { BatchWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '#shared/aws/dynamodb.ts';
import { hourAttribute, type TransactionRecord, transactionDay } from '#shared/data/transaction-record.ts';

/**
 * Writes transaction records and their day counters in the layout the service's completions write
 * (shared/data/transaction-record.ts), with batch writes: far faster than completing each payment,
 * for tests and benches that need a history (100,000 lines in a bench). Records may come from a
 * generator, so a big history is never held whole; the counters are set once at the end.
 */
export async function writeTransactionHistory(
  records: Iterable<TransactionRecord> | AsyncIterable<TransactionRecord>,
): Promise<number> {
  const counters = new Map<string, Map<string, number>>();
  let batch: TransactionRecord[] = [];
  let written = 0;
  const flush = async () => {
    const chunks = Array.from({ length: Math.ceil(batch.length / 25) }, (_, i) =>
      batch.slice(i * 25, i * 25 + 25),
    );
    await Promise.all(
      chunks.map((chunk) =>
        documentClient.send(
          new BatchWriteCommand({
            RequestItems: {
              [tableName()]: chunk.map((record) => ({
                PutRequest: {
                  Item: {
                    pk: `TXDAY#${record.businessId}#${transactionDay(record.createdAt)}`,
                    sk: `${record.createdAt}#${record.id}`,
                    entity: 'transaction',
                    ...record,
                  },
                },
              })),
            },
          }),
        ),
      ),
    );
    written += batch.length;
    batch = [];
  };
  for await (const record of records) {
    const key = `${record.storeId}|${transactionDay(record.createdAt)}`;
    const hours = counters.get(key) ?? new Map<string, number>();
    const hour = hourAttribute(record.createdAt);
    hours.set(hour, (hours.get(hour) ?? 0) + 1);
    counters.set(key, hours);
    batch.push(record);
    if (batch.length === 200) await flush();
  }
  await flush();
  for (const [key, hours] of counters) {
    const [storeId, day] = key.split('|');
    const names: Record<string, string> = { '#count': 'count' };
    const values: Record<string, number | string> = {
      ':count': [...hours.values()].reduce((a, b) => a + b, 0),
      ':entity': 'transaction_counter',
    };
    const adds = ['#count :count'];
    for (const [hour, count] of hours) {
      names[`#${hour}`] = hour;
      values[`:${hour}`] = count;
      adds.push(`#${hour} :${hour}`);
    }
    await documentClient.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { pk: `TXCOUNT#${storeId}`, sk: day },
        UpdateExpression: `ADD ${adds.join(', ')} SET entity = :entity`,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      }),
    );
  }
  return written;
}

/**
 * The i-th line of a bench's history: a Wave payment of order-<i> (or, with `type` and `amount`,
 * a refund or transfer of the same shape), succeeded at `createdAt`.
 */
export function benchOrderLine(
  i: number,
  line: {
    businessId: string;
    storeId: string;
    createdAt: string;
    type?: TransactionRecord['type'];
    amount?: number;
  },
): TransactionRecord {
  return {
    id: randomUUID(),
    businessId: line.businessId,
    storeId: line.storeId,
    type: line.type ?? 'payment',
    status: 'success',
    amount: { amount: line.amount ?? 150_000, currency: 'XOF' },
    fees: { amount: 1_500, currency: 'XOF' },
    currency: 'XOF',
    paymentMethod: 'wave',
    counterpartLabel: 'Client Sandbox',
    counterpartIdentifier: '+2250700000001',
    description: `Payment order-${i}`,
    reference: `order-${i}`,
    createdAt: line.createdAt,
    transactionDetails: { id: randomUUID(), reference: `order-${i}` },
    paymentRequestId: randomUUID(),
  };
}
