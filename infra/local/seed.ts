import { createApiKey } from '#shared/data/api-key.ts';
import { createBusiness, getBusiness } from '#shared/data/business.ts';
import { registerDevice } from '#shared/data/device.ts';
import { attachUser, getMember } from '#shared/data/member.ts';
import { membershipWrite } from '#shared/data/membership.ts';
import { createStore } from '#shared/data/store.ts';
import { transactWrite } from '#shared/data/transact.ts';
import { findUserByPhone, newUser, userWrites } from '#shared/data/user.ts';
import { UserAlreadyExists } from '#shared/errors/service-providers.ts';
import type { DemoCredentials } from './local-config.ts';

/** The demo business's owner: signs in on the dashboard with this phone (the code is in the SMS inbox). */
export const demoOwnerPhone = '+2250700000000';

/** The demo business a newcomer starts with: API access, one store, one soundbox, one merchant key. */
export async function seedDemo(): Promise<DemoCredentials> {
  const { business, owner } = await createBusiness({
    name: 'Demo Boutique',
    apiAccessEnabled: true,
    isServiceProvider: false,
    verificationLevel: 1,
    owner: { name: 'Awa Demo', phone: demoOwnerPhone },
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

/**
 * The demo owner as a user who owns the demo business, so the dashboard's sign-in finds them.
 * Run at every start: a data directory made before the dashboard existed gets its owner too.
 */
export async function ensureDemoOwner(demo: DemoCredentials): Promise<string> {
  const business = await getBusiness(demo.businessId);
  if (!business) return demoOwnerPhone;
  const known = await findUserByPhone(demoOwnerPhone);
  const user = known ?? newUser({ phone: demoOwnerPhone, firstName: 'Awa', lastName: 'Demo' });
  if (!known) {
    const owner = await getMember(business.id, business.ownerMemberId);
    if (!owner) return demoOwnerPhone;
    try {
      await transactWrite([
        ...userWrites(user),
        membershipWrite({ ...owner, userId: user.id }, business.name),
      ]);
    } catch (error) {
      // Another start got there first: the owner is there either way.
      if (!(error instanceof UserAlreadyExists)) throw error;
    }
  }
  // The owner member was made before its user: name the user on it (a no-op once done).
  const owner = await findUserByPhone(demoOwnerPhone);
  if (owner) await attachUser(business.id, business.ownerMemberId, owner.id);
  return demoOwnerPhone;
}
