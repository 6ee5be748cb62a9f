import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import type { LocalConfig } from '#infra/local/local-config.ts';

const tableClient = (config: LocalConfig) =>
  new DynamoDBClient({
    endpoint: config.endpoints.dynamodb,
    region: 'eu-west-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });

/**
 * The provider's reference of a request's collection is never shown to integrators; a test that
 * plays the provider reads it from the local host's table, as the provider would know it. A
 * request that ended unpaid keeps its last collection among the superseded ones.
 */
export async function readProviderReference(config: LocalConfig, paymentRequestId: string): Promise<string> {
  const client = tableClient(config);
  const { Item } = await client.send(
    new GetItemCommand({
      TableName: config.tableName,
      Key: { pk: { S: `PAYREQ#${paymentRequestId}` }, sk: { S: 'PAYREQ' } },
      ConsistentRead: true,
    }),
  );
  const reference = Item?.providerReference?.S ?? Item?.supersededCollections?.L?.at(-1)?.S;
  if (!reference) throw new Error(`payment request ${paymentRequestId} has no collection`);
  return reference;
}

/** The provider's reference of a transfer's payout, as the provider would know it. */
export async function readPayoutReference(config: LocalConfig, transferId: string): Promise<string> {
  const client = tableClient(config);
  const pointer = await client.send(
    new GetItemCommand({
      TableName: config.tableName,
      Key: { pk: { S: `PAYOUT#${transferId}` }, sk: { S: 'PAYOUT' } },
    }),
  );
  const transfer = await client.send(
    new GetItemCommand({
      TableName: config.tableName,
      Key: { pk: { S: `BIZ#${pointer.Item?.businessId?.S}` }, sk: { S: `TRANSFER#${transferId}` } },
      ConsistentRead: true,
    }),
  );
  const reference = transfer.Item?.providerReference?.S;
  if (!reference) throw new Error(`transfer ${transferId} has no payout`);
  return reference;
}
