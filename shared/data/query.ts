import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '#shared/aws/dynamodb.ts';

/**
 * Every item a query matches, following pages. For small, bounded collections only (a business's
 * stores, devices, links, a store's wallets): big ones are paged by their callers.
 */
export async function queryAll(
  input: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey'>,
): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await documentClient.send(
      new QueryCommand({ ...input, TableName: tableName(), ExclusiveStartKey: startKey }),
    );
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return items;
}

/** Every item of one partition whose sort key starts with `prefix`. */
export function queryPrefix(pk: string, prefix: string): Promise<Record<string, unknown>[]> {
  return queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': pk, ':prefix': prefix },
  });
}

/**
 * The items of a sharded sparse index on gsi1 (`<prefix><shard>`, sort keys `<ISO time>#<id>`)
 * written before `before`, each shard read from its oldest, about `limit` in all.
 */
export async function queryShardsBefore(
  prefix: string,
  shards: number,
  before: Date,
  limit: number,
): Promise<Record<string, unknown>[]> {
  const perShard = Math.ceil(limit / shards);
  const pages = await Promise.all(
    Array.from({ length: shards }, async (_, shard) => {
      const { Items = [] } = await documentClient.send(
        new QueryCommand({
          TableName: tableName(),
          IndexName: 'gsi1',
          KeyConditionExpression: 'gsi1pk = :pending AND gsi1sk < :before',
          ExpressionAttributeValues: { ':pending': `${prefix}${shard}`, ':before': before.toISOString() },
          Limit: perShard,
        }),
      );
      return Items;
    }),
  );
  return pages.flat();
}
