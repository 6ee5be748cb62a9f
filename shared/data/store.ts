import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '#shared/aws/dynamodb.ts';
import { businessKey } from '#shared/data/business.ts';
import { queryPrefix } from '#shared/data/query.ts';
import { type GuardedWrite, transactWrite } from '#shared/data/transact.ts';
import { walletItem } from '#shared/data/wallet.ts';
import { defaultCurrency } from '#shared/domain/money.ts';
import { isUemoaCountry, type UemoaCountry } from '#shared/domain/uemoa-countries.ts';
import { walletKinds } from '#shared/domain/wallet.ts';
import { BusinessNotFound } from '#shared/errors/businesses.ts';
import { Conflict } from '#shared/errors/request.ts';

/**
 * Store: a shop or an online outlet of a business, with its currency, its country and its wallets.
 *
 * Keys:
 * - pk = BIZ#<businessId>, sk = STORE#<storeId>: the store, in its business's partition.
 * - pk = STORE#<storeId>, sk = STORE: which business a store id belongs to, for the few callers that
 *   hold a store id without a business (the operator's tools, the hosted pages).
 *
 * Access patterns and cost:
 * - list a business's stores: Query pk, begins_with(sk, "STORE#"), eventually consistent;
 *   0.5 RCU per 4 KB of stores (a store item is ~200 bytes: ~20 stores per half unit).
 * - get one store of a business: GetItem, 0.5 RCU. A store of another business is not under the
 *   caller's partition and so is not found. `knownStore` keeps what it read for a minute in the
 *   container (a store is never changed or deleted once made): a warm function creating payments
 *   for a store reads it once a minute.
 * - the business of a store id: GetItem on the pointer, 0.5 RCU.
 * - create with its wallets: TransactWriteItems, a condition check on the business and 4 puts,
 *   10 WCU.
 */
export interface Store {
  id: string;
  businessId: string;
  name: string;
  currency: string;
  /** Where it sells: its payers' numbers are read there first. Absent on older stores: `CI`. */
  country?: UemoaCountry | undefined;
  createdAt: string;
}

export const storeKey = (businessId: string, storeId: string) => ({
  pk: `BIZ#${businessId}`,
  sk: `STORE#${storeId}`,
});

const storePointerKey = (storeId: string) => ({ pk: `STORE#${storeId}`, sk: 'STORE' });

export async function findStoreBusiness(storeId: string): Promise<string | undefined> {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: tableName(), Key: storePointerKey(storeId) }),
  );
  return Item?.businessId as string | undefined;
}

export async function listStores(businessId: string): Promise<Store[]> {
  return (await queryPrefix(`BIZ#${businessId}`, 'STORE#')).map(toStore);
}

export async function getStore(businessId: string, storeId: string): Promise<Store | undefined> {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: tableName(), Key: storeKey(businessId, storeId) }),
  );
  return Item ? toStore(Item) : undefined;
}

const knownStoreTtlMs = 60_000;
const knownStoreLimit = 1_000;
const knownStores = new Map<string, { store: Store; until: number }>();

/** `getStore`, remembered for a minute in this container; a store not found is asked again next time. */
export async function knownStore(businessId: string, storeId: string): Promise<Store | undefined> {
  const key = `${businessId}/${storeId}`;
  const known = knownStores.get(key);
  if (known && known.until > Date.now()) return known.store;
  const store = await getStore(businessId, storeId);
  knownStores.delete(key);
  if (store) {
    // The oldest first: a map keeps insertion order.
    if (knownStores.size >= knownStoreLimit) knownStores.delete(knownStores.keys().next().value as string);
    knownStores.set(key, { store, until: Date.now() + knownStoreTtlMs });
  }
  return store;
}

export interface NewStore {
  businessId: string;
  name: string;
  country?: UemoaCountry | undefined;
}

export async function createStore(input: NewStore): Promise<Store> {
  const store = newStore(input);
  const table = tableName();
  await transactWrite([
    {
      write: {
        ConditionCheck: {
          TableName: table,
          Key: businessKey(store.businessId),
          ConditionExpression: 'attribute_exists(pk)',
        },
      },
      onConditionFailed: () => new BusinessNotFound(),
    },
    ...storeWrites(store),
  ]);
  return store;
}

export function newStore(input: NewStore): Store {
  return {
    id: randomUUID(),
    businessId: input.businessId,
    name: input.name,
    currency: defaultCurrency,
    ...(input.country ? { country: input.country } : {}),
    createdAt: new Date().toISOString(),
  };
}

/** The writes that create a store, its pointer and its wallets, for a transaction of the caller's. */
export function storeWrites(store: Store): GuardedWrite[] {
  const table = tableName();
  return [
    {
      write: {
        Put: {
          TableName: table,
          Item: { ...storeKey(store.businessId, store.id), entity: 'store', ...store },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      onConditionFailed: () => new Conflict('Store already exists'),
    },
    {
      write: {
        Put: {
          TableName: table,
          Item: {
            ...storePointerKey(store.id),
            entity: 'store_pointer',
            storeId: store.id,
            businessId: store.businessId,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      onConditionFailed: () => new Conflict('Store already exists'),
    },
    ...walletKinds.map((kind) => ({
      write: {
        Put: {
          TableName: table,
          Item: walletItem({
            businessId: store.businessId,
            storeId: store.id,
            kind,
            currency: store.currency,
          }),
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      onConditionFailed: () => new Conflict('Wallet already exists'),
    })),
  ];
}

function toStore(item: Record<string, unknown>): Store {
  return {
    id: item.id as string,
    businessId: item.businessId as string,
    name: item.name as string,
    currency: item.currency as string,
    ...(isUemoaCountry(item.country) ? { country: item.country } : {}),
    createdAt: item.createdAt as string,
  };
}
