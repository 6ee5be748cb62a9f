import { describe, expect, it } from 'vitest';
import { createApiKey } from '#shared/data/api-key.ts';
import { createBusiness } from '#shared/data/business.ts';
import { registerDevice } from '#shared/data/device.ts';
import { createStore } from '#shared/data/store.ts';
import { StoreNotFound } from '#shared/errors/businesses.ts';
import { authenticate } from '#shared/http/authenticate.ts';
import { balanceOf, devicesOf, storesOf } from '#shared/operations/stores.ts';

async function businessWithTwoStores() {
  const { business, owner } = await createBusiness({
    name: 'Two shops',
    apiAccessEnabled: true,
    isServiceProvider: false,
    verificationLevel: 1,
  });
  const first = await createStore({ businessId: business.id, name: 'First' });
  const second = await createStore({ businessId: business.id, name: 'Second' });
  await registerDevice({ businessId: business.id, storeId: first.id, deviceId: `dev-first-${first.id}` });
  await registerDevice({ businessId: business.id, storeId: second.id, deviceId: `dev-second-${second.id}` });
  return { business, owner, first, second };
}

/** A platform key of the business, scoped to its first store, made by its owner. */
async function keyScopedToFirstStore() {
  const stores = await businessWithTwoStores();
  const { apiKey, secret } = await createApiKey({
    businessId: stores.business.id,
    kind: 'platform',
    storeId: stores.first.id,
    memberId: stores.owner.id,
    name: 'P',
  });
  return { ...stores, apiKey, secret };
}

describe('keys read from DynamoDB', () => {
  it('authenticate as their business, with kind, store scope and creating member', async () => {
    const { business, owner, first, apiKey, secret } = await keyScopedToFirstStore();
    const caller = await authenticate({ 'x-api-key-id': apiKey.id, 'x-api-key': secret }, 'platform_key');
    expect(caller).toMatchObject({
      businessId: business.id,
      keyKind: 'platform',
      storeId: first.id,
      memberId: owner.id,
    });
  });

  it('scoped to a store see only that store, its devices and its balance', async () => {
    const { first, second, apiKey, secret } = await keyScopedToFirstStore();
    const caller = await authenticate({ 'x-api-key-id': apiKey.id, 'x-api-key': secret }, 'api_key');
    expect((await storesOf(caller)).map((s) => s.id)).toEqual([first.id]);
    expect((await devicesOf(caller)).map((d) => d.storeId)).toEqual([first.id]);
    expect(await balanceOf(caller, first.id)).toEqual({ amount: 0, currency: 'XOF' });
    await expect(balanceOf(caller, second.id)).rejects.toBeInstanceOf(StoreNotFound);
  });

  it('of the whole business see every store', async () => {
    const { business, owner, first, second } = await businessWithTwoStores();
    const { apiKey, secret } = await createApiKey({
      businessId: business.id,
      kind: 'merchant',
      memberId: owner.id,
      name: 'M',
    });
    const caller = await authenticate({ 'x-api-key-id': apiKey.id, 'x-api-key': secret }, 'api_key');
    expect((await storesOf(caller)).map((s) => s.id).sort()).toEqual([first.id, second.id].sort());
    expect(await devicesOf(caller)).toHaveLength(2);
  });
});
