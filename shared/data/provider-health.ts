import { PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '#shared/aws/dynamodb.ts';

/**
 * What a direct adapter's calls to one operator met lately, shared by every function of the stage
 * (the payer pages, the API, the workers), written only when something goes wrong:
 * - pk = PROVIDERHEALTH#<adapter>#<method>, sk = MINUTE#<YYYY-MM-DDTHH:MM>: the calls that failed
 *   that minute (`failures`, added to) and the last of them (`lastFailureAt`); gone after a day.
 * - same pk, sk = RECOVERED: `at`, when a call last succeeded after failures.
 * `MINUTE#…` sorts before `RECOVERED`, so one query from the window's first minute reads both.
 */
const healthKey = (adapter: string, method: string) => `PROVIDERHEALTH#${adapter}#${method}`;
const minuteOf = (at: Date) => `MINUTE#${at.toISOString().slice(0, 16)}`;
const dayLater = (at: Date) => Math.floor(at.getTime() / 1000) + 86_400;

export interface ProviderHealth {
  /** Failed calls in the window. */
  failures: number;
  lastFailureAt?: string;
  recoveredAt?: string;
}

export async function recordProviderFailure(adapter: string, method: string, at = new Date()): Promise<void> {
  await documentClient.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: { pk: healthKey(adapter, method), sk: minuteOf(at) },
      UpdateExpression: 'ADD failures :one SET lastFailureAt = :at, #ttl = :ttl',
      ExpressionAttributeNames: { '#ttl': 'ttl' },
      ExpressionAttributeValues: { ':one': 1, ':at': at.toISOString(), ':ttl': dayLater(at) },
    }),
  );
}

export async function recordProviderRecovery(
  adapter: string,
  method: string,
  at = new Date(),
): Promise<void> {
  await documentClient.send(
    new PutCommand({
      TableName: tableName(),
      Item: { pk: healthKey(adapter, method), sk: 'RECOVERED', at: at.toISOString(), ttl: dayLater(at) },
    }),
  );
}

/** The failures since `since` and the last recovery: one query of at most a few small items. */
export async function providerHealthSince(
  adapter: string,
  method: string,
  since: Date,
): Promise<ProviderHealth> {
  const { Items = [] } = await documentClient.send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk AND sk >= :from',
      ExpressionAttributeValues: { ':pk': healthKey(adapter, method), ':from': minuteOf(since) },
    }),
  );
  const health: ProviderHealth = { failures: 0 };
  for (const item of Items) {
    if (item.sk === 'RECOVERED') {
      health.recoveredAt = item.at as string;
      continue;
    }
    health.failures += Number(item.failures ?? 0);
    const last = item.lastFailureAt as string | undefined;
    if (last && (!health.lastFailureAt || last > health.lastFailureAt)) health.lastFailureAt = last;
  }
  return health;
}
