import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '#shared/aws/dynamodb.ts';
import { businessKey } from '#shared/data/business.ts';
import { storeKey } from '#shared/data/store.ts';
import { transactWrite } from '#shared/data/transact.ts';
import { hashApiKeySecret, newApiKeySecret } from '#shared/domain/api-key-secret.ts';
import { BusinessNotFound, Conflict, StoreNotFound } from '#shared/domain/errors.ts';

/**
 * API key: what a caller presents as X-API-KEY-ID (the key's id) and X-API-KEY (the secret). Only
 * the secret's SHA-256 digest is stored; the secret itself is returned once, at creation.
 *
 * Kinds: `merchant` (the business's own integration), `platform` (an integrator acting for the
 * business; escrow endpoints need it), optionally scoped to one store, which then sees only that
 * store's stores, devices and objects.
 *
 * Keys:
 * - pk = APIKEY#<keyId>, sk = APIKEY: authentication looks a key up by its id alone.
 * - gsi1pk = BIZ#<businessId>#APIKEY, gsi1sk = <createdAt>: a business's keys, oldest first.
 *
 * Access patterns and cost:
 * - get by id (authentication, when the container cache misses): GetItem, 0.5 RCU.
 * - create: TransactWriteItems, condition checks on the business (and store) and 1 put, 4-6 WCU.
 */
export type ApiKeyKind = 'merchant' | 'platform';

export interface ApiKey {
  id: string;
  businessId: string;
  kind: ApiKeyKind;
  /** Set for a platform key scoped to one store. */
  storeId?: string | undefined;
  /** The member who created the key. */
  memberId: string;
  name: string;
  secretHash: string;
  createdAt: string;
  updatedAt: string;
}

export const apiKeyKey = (keyId: string) => ({ pk: `APIKEY#${keyId}`, sk: 'APIKEY' });

export async function getApiKey(keyId: string): Promise<ApiKey | undefined> {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: tableName(), Key: apiKeyKey(keyId) }),
  );
  if (!Item) return undefined;
  return {
    id: Item.id as string,
    businessId: Item.businessId as string,
    kind: Item.kind as ApiKeyKind,
    storeId: Item.storeId as string | undefined,
    memberId: Item.memberId as string,
    name: Item.name as string,
    secretHash: Item.secretHash as string,
    createdAt: Item.createdAt as string,
    updatedAt: Item.updatedAt as string,
  };
}

export interface NewApiKey {
  businessId: string;
  kind: ApiKeyKind;
  storeId?: string | undefined;
  memberId: string;
  name: string;
}

/** Creates a key and returns it with its secret, which is not stored and cannot be shown again. */
export async function createApiKey(input: NewApiKey): Promise<{ apiKey: ApiKey; secret: string }> {
  const secret = newApiKeySecret();
  const now = new Date().toISOString();
  const apiKey: ApiKey = {
    id: randomUUID(),
    businessId: input.businessId,
    kind: input.kind,
    storeId: input.storeId,
    memberId: input.memberId,
    name: input.name,
    secretHash: hashApiKeySecret(secret),
    createdAt: now,
    updatedAt: now,
  };
  const table = tableName();
  await transactWrite([
    {
      write: {
        ConditionCheck: {
          TableName: table,
          Key: businessKey(apiKey.businessId),
          ConditionExpression: 'attribute_exists(pk)',
        },
      },
      onConditionFailed: () => new BusinessNotFound(),
    },
    ...(apiKey.storeId
      ? [
          {
            write: {
              ConditionCheck: {
                TableName: table,
                Key: storeKey(apiKey.businessId, apiKey.storeId),
                ConditionExpression: 'attribute_exists(pk)',
              },
            },
            onConditionFailed: () => new StoreNotFound(),
          },
        ]
      : []),
    {
      write: {
        Put: {
          TableName: table,
          Item: {
            ...apiKeyKey(apiKey.id),
            gsi1pk: `BIZ#${apiKey.businessId}#APIKEY`,
            gsi1sk: apiKey.createdAt,
            entity: 'api_key',
            ...apiKey,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      onConditionFailed: () => new Conflict('API key already exists'),
    },
  ]);
  return { apiKey, secret };
}
