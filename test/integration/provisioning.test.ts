import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { documentClient, tableName } from '#shared/aws/dynamodb.ts';
import { createApiKey, getApiKey } from '#shared/data/api-key.ts';
import { createBusiness, getBusiness } from '#shared/data/business.ts';
import { listDevices, registerDevice } from '#shared/data/device.ts';
import { createStore, findStoreBusiness, getStore, listStores } from '#shared/data/store.ts';
import { listStoreWallets } from '#shared/data/wallet.ts';
import { apiKeySecretMatches } from '#shared/domain/api-key-secret.ts';
import { BusinessNotFound, StoreNotFound } from '#shared/errors/businesses.ts';
import { Conflict } from '#shared/errors/request.ts';

const unknownId = '00000000-0000-4000-8000-000000000000';

async function newBusiness(name = 'Biz') {
  return createBusiness({ name, apiAccessEnabled: true, isServiceProvider: false, verificationLevel: 1 });
}

async function itemCount(prefix: string) {
  const { Items = [] } = await documentClient.send(
    new ScanCommand({
      TableName: tableName(),
      FilterExpression: 'begins_with(pk, :p)',
      ExpressionAttributeValues: { ':p': prefix },
    }),
  );
  return Items.length;
}

describe('businesses', () => {
  it('are created with their owner, who is recorded on the business', async () => {
    const { business, owner } = await newBusiness('Boutique Awa');
    expect(await getBusiness(business.id)).toEqual(business);
    expect(owner).toMatchObject({ businessId: business.id, role: 'owner' });
    expect(business.ownerMemberId).toBe(owner.id);
  });
});

describe('stores', () => {
  it('are created in XOF with an operating and an escrow wallet at zero', async () => {
    const { business } = await newBusiness();
    const store = await createStore({ businessId: business.id, name: 'Plateau' });
    expect(store.currency).toBe('XOF');
    const wallets = await listStoreWallets(business.id, store.id);
    expect(wallets.map((w) => [w.kind, w.total, w.blocked]).sort()).toEqual([
      ['escrow', 0, 0],
      ['operating', 0, 0],
    ]);
    expect(await findStoreBusiness(store.id)).toBe(business.id);
  });

  it('keep the country they are made in; one made without any has none, read as Côte d’Ivoire', async () => {
    const { business } = await newBusiness();
    const dakar = await createStore({ businessId: business.id, name: 'Dakar', country: 'SN' });
    const older = await createStore({ businessId: business.id, name: 'Plateau' });
    expect((await getStore(business.id, dakar.id))?.country).toBe('SN');
    expect(await getStore(business.id, older.id)).not.toHaveProperty('country');
    expect((await listStores(business.id)).find((store) => store.id === dakar.id)?.country).toBe('SN');
  });

  it('are listed only under their own business', async () => {
    const { business: mine } = await newBusiness();
    const { business: theirs } = await newBusiness();
    const a = await createStore({ businessId: mine.id, name: 'A' });
    const b = await createStore({ businessId: mine.id, name: 'B' });
    const other = await createStore({ businessId: theirs.id, name: 'Other' });
    expect((await listStores(mine.id)).map((s) => s.id).sort()).toEqual([a.id, b.id].sort());
    expect(await getStore(mine.id, other.id)).toBeUndefined();
    expect(await listStoreWallets(mine.id, other.id)).toEqual([]);
  });

  it('cannot be created for an unknown business, and nothing is written', async () => {
    await expect(createStore({ businessId: unknownId, name: 'Ghost' })).rejects.toBeInstanceOf(
      BusinessNotFound,
    );
    expect(await itemCount(`BIZ#${unknownId}`)).toBe(0);
  });
});

describe('devices', () => {
  it('belong to exactly one store and keep the case of their id', async () => {
    const { business } = await newBusiness();
    const store = await createStore({ businessId: business.id, name: 'S' });
    await registerDevice({ businessId: business.id, storeId: store.id, deviceId: 'SoundBox-Aa-1' });
    await registerDevice({ businessId: business.id, storeId: store.id, deviceId: 'soundbox-aa-1' });
    const devices = await listDevices(business.id);
    expect(devices.map((d) => d.id).sort()).toEqual(['SoundBox-Aa-1', 'soundbox-aa-1']);
    expect(devices.every((d) => d.storeId === store.id && d.type === 'SoundBoxQrTerminal')).toBe(true);
  });

  it('cannot be registered twice, even by another business', async () => {
    const { business: first } = await newBusiness();
    const { business: second } = await newBusiness();
    const s1 = await createStore({ businessId: first.id, name: 'S1' });
    const s2 = await createStore({ businessId: second.id, name: 'S2' });
    await registerDevice({ businessId: first.id, storeId: s1.id, deviceId: 'Terminal-42' });
    await expect(
      registerDevice({ businessId: second.id, storeId: s2.id, deviceId: 'Terminal-42' }),
    ).rejects.toBeInstanceOf(Conflict);
    expect(await listDevices(second.id)).toEqual([]);
  });

  it('cannot be bound to a store of another business', async () => {
    const { business: mine } = await newBusiness();
    const { business: theirs } = await newBusiness();
    const theirStore = await createStore({ businessId: theirs.id, name: 'Theirs' });
    await expect(
      registerDevice({ businessId: mine.id, storeId: theirStore.id, deviceId: 'Sneaky-1' }),
    ).rejects.toBeInstanceOf(StoreNotFound);
    expect(await itemCount('DEVICE#Sneaky-1')).toBe(0);
  });
});

describe('API keys', () => {
  it('store only a digest of the secret, with the business, kind and creating member', async () => {
    const { business, owner } = await newBusiness();
    const { apiKey, secret } = await createApiKey({
      businessId: business.id,
      kind: 'merchant',
      memberId: owner.id,
      name: 'POS',
    });
    const stored = await getApiKey(apiKey.id);
    expect(stored).toMatchObject({
      businessId: business.id,
      kind: 'merchant',
      memberId: owner.id,
      name: 'POS',
    });
    expect(JSON.stringify(stored)).not.toContain(secret);
    expect(apiKeySecretMatches(secret, stored?.secretHash ?? '')).toBe(true);
  });

  it('can be scoped to a store of their business only', async () => {
    const { business, owner } = await newBusiness();
    const { business: theirs } = await newBusiness();
    const store = await createStore({ businessId: business.id, name: 'S' });
    const theirStore = await createStore({ businessId: theirs.id, name: 'T' });
    const { apiKey } = await createApiKey({
      businessId: business.id,
      kind: 'platform',
      storeId: store.id,
      memberId: owner.id,
      name: 'P',
    });
    expect((await getApiKey(apiKey.id))?.storeId).toBe(store.id);
    await expect(
      createApiKey({
        businessId: business.id,
        kind: 'platform',
        storeId: theirStore.id,
        memberId: owner.id,
        name: 'P',
      }),
    ).rejects.toBeInstanceOf(StoreNotFound);
  });

  it('cannot be created for an unknown business', async () => {
    await expect(
      createApiKey({ businessId: unknownId, kind: 'merchant', memberId: unknownId, name: 'x' }),
    ).rejects.toBeInstanceOf(BusinessNotFound);
  });
});
