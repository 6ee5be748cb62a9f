import { createApiKey } from '#shared/data/api-key.ts';
import { createBusiness, getBusiness } from '#shared/data/business.ts';
import { registerDevice } from '#shared/data/device.ts';
import { createStore } from '#shared/data/store.ts';
import type { DemoCredentials } from './local-config.ts';

/** The demo business a newcomer starts with: API access, one store, one soundbox, one merchant key. */
export async function seedDemo(): Promise<DemoCredentials> {
  const { business, owner } = await createBusiness({
    name: 'Demo Boutique',
    apiAccessEnabled: true,
    isServiceProvider: false,
    verificationLevel: 1,
    owner: { name: 'Awa Demo', phone: '+2250700000000' },
  });
  const store = await createStore({ businessId: business.id, name: 'Demo Boutique Plateau' });
  const device = await registerDevice({
    businessId: business.id,
    storeId: store.id,
    deviceId: 'SoundBox-Demo-01',
  });
  const { apiKey, secret } = await createApiKey({
    businessId: business.id,
    kind: 'merchant',
    memberId: owner.id,
    name: 'Demo merchant key',
  });
  return {
    businessId: business.id,
    storeId: store.id,
    deviceId: device.id,
    apiKeyId: apiKey.id,
    apiKey: secret,
  };
}

/** A restart keeps the data; the demo is seeded again only if its business is gone. */
export async function demoStillThere(demo: DemoCredentials | undefined): Promise<boolean> {
  return demo !== undefined && (await getBusiness(demo.businessId)) !== undefined;
}
