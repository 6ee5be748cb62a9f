import { randomUUID } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '#shared/aws/dynamodb.ts';
import { businessKey } from '#shared/data/business.ts';
import { queryAll } from '#shared/data/query.ts';
import { storeKey } from '#shared/data/store.ts';
import { type GuardedWrite, transactWrite } from '#shared/data/transact.ts';
import { hashApiKeySecret, newApiKeySecret } from '#shared/domain/api-key-secret.ts';
import type { ApiKeyKind } from '#shared/domain/caller.ts';
import { ApiKeyNotFound } from '#shared/errors/api-keys.ts';
import { BusinessNotFound, StoreNotFound } from '#shared/errors/businesses.ts';
import { Conflict } from '#shared/errors/request.ts';

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
 * Access patterns and cost (a key is ~0.4 KB):
 * - get by id (every authenticated request): GetItem, strongly consistent so a revocation holds
 *   from the next request on, 1 RCU.
 * - record its last use: UpdateItem at most once an hour per key (the condition refuses sooner
 *   ones), 1 WCU plus 1 on gsi1, which projects everything: at most 2 WCU per key-hour of use.
 * - a business's keys (the dashboard): Query gsi1, 0.5 RCU per 4 KB (ten live keys and the revoked
 *   ones, well under 4 KB for years).
 * - a merchant's keys made by a provider (detach): Query gsi1, filtered on the provider.
 * - revoke: UpdateItem, 1 WCU (plus 1 on gsi1), in the detach's or the dashboard's transaction.
 * - create: TransactWriteItems, condition checks on the business (and store) and 1 put, 4-6 WCU.
 */
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
  /** The service provider that made this key for its merchant: detaching it revokes the key. */
  serviceProviderBusinessId?: string | undefined;
  /** A revoked key authenticates nothing; the record stays for the audit trail. */
  revokedAt?: string | undefined;
  /** When a request last authenticated with it, to the hour (see `lastUseEveryMs`). */
  lastUsedAt?: string | undefined;
  createdAt: string;
  updatedAt: string;
}

const businessKeysIndexKey = (businessId: string) => `BIZ#${businessId}#APIKEY`;

export const apiKeyKey = (keyId: string) => ({ pk: `APIKEY#${keyId}`, sk: 'APIKEY' });

export async function getApiKey(keyId: string): Promise<ApiKey | undefined> {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: tableName(), Key: apiKeyKey(keyId), ConsistentRead: true }),
  );
  return Item ? toApiKey(Item) : undefined;
}

function toApiKey(Item: Record<string, unknown>): ApiKey {
  return {
    id: Item.id as string,
    businessId: Item.businessId as string,
    kind: Item.kind as ApiKeyKind,
    storeId: Item.storeId as string | undefined,
    memberId: Item.memberId as string,
    name: Item.name as string,
    secretHash: Item.secretHash as string,
    serviceProviderBusinessId: Item.serviceProviderBusinessId as string | undefined,
    revokedAt: Item.revokedAt as string | undefined,
    lastUsedAt: Item.lastUsedAt as string | undefined,
    createdAt: Item.createdAt as string,
    updatedAt: Item.updatedAt as string,
  };
}

/** A business's keys, live and revoked, oldest first: Query gsi1, 0.5 RCU per 4 KB. */
export async function listBusinessApiKeys(businessId: string): Promise<ApiKey[]> {
  const items = await queryAll({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': businessKeysIndexKey(businessId) },
  });
  return items.map(toApiKey);
}

/** A key's last use is written at most this often: a write an hour per key in use, not per request. */
export const lastUseEveryMs = 3_600_000;

export const lastUseIsDue = (apiKey: Pick<ApiKey, 'lastUsedAt'>, now: Date) =>
  apiKey.lastUsedAt === undefined || now.getTime() - Date.parse(apiKey.lastUsedAt) >= lastUseEveryMs;

/**
 * Records that the key was used now, unless another request did within the hour (then the
 * condition fails and nothing is written). A key revoked meanwhile is left as it is.
 */
export async function recordApiKeyUse(keyId: string, now: Date): Promise<void> {
  try {
    await documentClient.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: apiKeyKey(keyId),
        UpdateExpression: 'SET lastUsedAt = :now',
        ConditionExpression:
          'attribute_exists(pk) AND (attribute_not_exists(lastUsedAt) OR lastUsedAt < :due)',
        ExpressionAttributeValues: {
          ':now': now.toISOString(),
          ':due': new Date(now.getTime() - lastUseEveryMs).toISOString(),
        },
      }),
    );
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
}

export interface NewApiKey {
  businessId: string;
  kind: ApiKeyKind;
  storeId?: string | undefined;
  memberId: string;
  name: string;
  serviceProviderBusinessId?: string | undefined;
}

/** Creates a key and returns it with its secret, which is not stored and cannot be shown again. */
export async function createApiKey(
  input: NewApiKey,
  /** Writes that must happen with it or not at all (its audit entry), given the key. */
  alsoWrite: (apiKey: ApiKey) => readonly GuardedWrite[] = () => [],
): Promise<{ apiKey: ApiKey; secret: string }> {
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
    serviceProviderBusinessId: input.serviceProviderBusinessId,
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
            gsi1pk: businessKeysIndexKey(apiKey.businessId),
            gsi1sk: apiKey.createdAt,
            entity: 'api_key',
            ...apiKey,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      onConditionFailed: () => new Conflict('API key already exists'),
    },
    ...alsoWrite(apiKey),
  ]);
  return { apiKey, secret };
}

/** The live keys a service provider made for a merchant: Query gsi1, 0.5 RCU per 4 KB of keys. */
export async function listProviderMadeKeyIds(merchantId: string, providerId: string): Promise<string[]> {
  const items = await queryAll({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    FilterExpression: 'serviceProviderBusinessId = :provider AND attribute_not_exists(revokedAt)',
    ExpressionAttributeValues: { ':pk': businessKeysIndexKey(merchantId), ':provider': providerId },
  });
  return items.map((item) => item.id as string);
}

/**
 * The write that revokes one of `businessId`'s keys, for a transaction of the caller's: a key of
 * another business fails its condition as a key that does not exist. Revoking twice keeps the
 * first time.
 */
export function revokeBusinessKeyWrite(businessId: string, keyId: string, at: string): GuardedWrite {
  return {
    write: {
      Update: {
        TableName: tableName(),
        Key: apiKeyKey(keyId),
        UpdateExpression: 'SET revokedAt = if_not_exists(revokedAt, :at), updatedAt = :at',
        ConditionExpression: 'businessId = :business',
        ExpressionAttributeValues: { ':at': at, ':business': businessId },
      },
    },
    onConditionFailed: () => new ApiKeyNotFound(),
  };
}

/** The write that revokes a key, for a transaction of the caller's. */
export function revokeKeyWrite(keyId: string, at: string): GuardedWrite {
  return {
    write: {
      Update: {
        TableName: tableName(),
        Key: apiKeyKey(keyId),
        UpdateExpression: 'SET revokedAt = :at, updatedAt = :at',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':at': at },
      },
    },
  };
}
