import { createApiKey } from '#shared/data/api-key.ts';
import { createBusiness } from '#shared/data/business.ts';
import { registerDevice } from '#shared/data/device.ts';
import { createStore } from '#shared/data/store.ts';
import { listStoreWallets } from '#shared/data/wallet.ts';
import type { Caller } from '#shared/domain/caller.ts';
import { authenticate } from '#shared/http/authenticate.ts';

/** A business with API access, one store, one soundbox and a merchant key, straight in DynamoDB. */
export async function merchant(options: { verificationLevel?: number; name?: string } = {}) {
  const { business, owner } = await createBusiness({
    name: options.name ?? 'Boutique Test',
    apiAccessEnabled: true,
    isServiceProvider: false,
    verificationLevel: options.verificationLevel ?? 1,
  });
  const store = await createStore({ businessId: business.id, name: 'Boutique Plateau' });
  const device = await registerDevice({
    businessId: business.id,
    storeId: store.id,
    deviceId: `sbx-${store.id}`,
  });
  const { apiKey, secret } = await createApiKey({
    businessId: business.id,
    kind: 'merchant',
    memberId: owner.id,
    name: 'k',
  });
  const caller: Caller = await authenticate({ 'x-api-key-id': apiKey.id, 'x-api-key': secret }, 'api_key');
  return { business, store, device, caller };
}

export async function operatingWallet(businessId: string, storeId: string) {
  const wallets = await listStoreWallets(businessId, storeId);
  const wallet = wallets.find((w) => w.kind === 'operating');
  if (!wallet) throw new Error('no operating wallet');
  return wallet;
}
