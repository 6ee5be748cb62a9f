import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import type { LocalConfig } from '#infra/local/local-config.ts';

/**
 * The provider's reference of a request's collection is never shown to integrators; a test that
 * plays the provider reads it from the local host's table, as the provider would know it.
 */
export async function readProviderReference(config: LocalConfig, paymentRequestId: string): Promise<string> {
  const client = new DynamoDBClient({
    endpoint: config.endpoints.dynamodb,
    region: 'eu-west-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const { Item } = await client.send(
    new GetItemCommand({
      TableName: config.tableName,
      Key: { pk: { S: `PAYREQ#${paymentRequestId}` }, sk: { S: 'PAYREQ' } },
      ConsistentRead: true,
    }),
  );
  const reference = Item?.providerReference?.S;
  if (!reference) throw new Error(`payment request ${paymentRequestId} has no collection`);
  return reference;
}
