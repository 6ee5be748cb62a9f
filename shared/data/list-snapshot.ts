import { createHash } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '#shared/aws/dynamodb.ts';

/**
 * The instant a paged listing is taken at, remembered between its pages. Integrations page with
 * `page` alone; if page 2 were computed against a newer state than page 1, a payment arriving in
 * between would push an item from page 1 onto page 2. So page 1 fixes `asOf`, and the following
 * pages of the same query by the same key, asked within the snapshot's life, reuse it. Asking
 * page 1 again starts a fresh snapshot.
 *
 * Key: pk = LISTSNAPSHOT#<keyId>, sk = <hash of the query without its page>; expires by TTL.
 * Cost: page 1 writes it (1 WCU); later pages read it (0.5 RCU).
 */
const lifeSeconds = 10 * 60;

const snapshotKey = (keyId: string, query: unknown) => ({
  pk: `LISTSNAPSHOT#${keyId}`,
  sk: createHash('sha256').update(JSON.stringify(query)).digest('hex').slice(0, 32),
});

export async function listingInstant(
  keyId: string,
  query: unknown,
  page: number,
  now = new Date(),
): Promise<string> {
  const key = snapshotKey(keyId, query);
  if (page > 1) {
    const { Item } = await documentClient.send(new GetCommand({ TableName: tableName(), Key: key }));
    if (Item && Number(Item.ttl) * 1000 > now.getTime()) return Item.asOf as string;
  }
  const asOf = now.toISOString();
  await documentClient.send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...key, entity: 'list_snapshot', asOf, ttl: Math.floor(now.getTime() / 1000) + lifeSeconds },
    }),
  );
  return asOf;
}
