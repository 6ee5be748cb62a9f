import { randomUUID } from 'node:crypto';
import type { OnboardBusinessBody } from '#shared/api/service-providers.ts';
import { businessLinkResponse, createdMerchantApiKeyResponse } from '#shared/api/service-providers.ts';
import { createApiKey, listProviderMadeKeyIds, revokeKeyWrite } from '#shared/data/api-key.ts';
import { type Business, businessWrites, getBusiness } from '#shared/data/business.ts';
import type { Member } from '#shared/data/member.ts';
import { membershipWrite } from '#shared/data/membership.ts';
import {
  detachLinkWrite,
  getLink,
  linkWrite,
  listMerchantLinks,
  type ServiceProviderLink,
} from '#shared/data/service-provider-link.ts';
import { newStore, type Store, storeWrites } from '#shared/data/store.ts';
import { type GuardedWrite, transactWrite } from '#shared/data/transact.ts';
import { newUser, type User, userWrites } from '#shared/data/user.ts';
import type { Caller } from '#shared/domain/caller.ts';
import { countryOfNumber } from '#shared/domain/phone-numbers.ts';
import { defaultCountry, type UemoaCountry } from '#shared/domain/uemoa-countries.ts';
import { BusinessNotFound } from '#shared/errors/businesses.ts';
import { count } from '#shared/metrics.ts';

/** A transaction holds at most 100 items; a detach revokes keys in the same one as the link. */
const maxKeysRevokedWithLink = 99;

export interface NewOwnedBusiness {
  owner: Omit<User, 'id' | 'createdAt'>;
  business: { name: string; activityId?: string | undefined; referralCode?: string | undefined };
  storeName: string;
  /** The first store's country; by default the owner's phone's, else Côte d'Ivoire. */
  storeCountry?: UemoaCountry | undefined;
  /** Onboarded by a provider: API access from the start, and the provider's link. */
  serviceProvider?: { id: string; name: string } | undefined;
  /** Writes that must succeed with it or not at all (the dashboard's use of its verified code). */
  alsoWrite?: readonly GuardedWrite[] | undefined;
}

/**
 * Creates a user, the business they own (its owner member, its first store and wallets) and, for a
 * provider's onboarding, the link, in one transaction: a taken phone (409 `user_already_exists`)
 * or any other failed write leaves nothing behind.
 */
export async function createOwnedBusiness(input: NewOwnedBusiness) {
  const user = newUser(input.owner);
  const businessId = randomUUID();
  const createdAt = new Date().toISOString();
  const owner: Member = {
    id: randomUUID(),
    businessId,
    role: 'owner',
    name: `${user.firstName} ${user.lastName}`,
    phone: user.phone,
    userId: user.id,
    createdAt,
  };
  const business: Business = {
    id: businessId,
    name: input.business.name,
    apiAccessEnabled: input.serviceProvider !== undefined,
    isServiceProvider: false,
    verificationLevel: 0,
    ownerMemberId: owner.id,
    activityId: input.business.activityId,
    referralCode: input.business.referralCode,
    onboardedByServiceProviderId: input.serviceProvider?.id,
    createdAt,
  };
  const store: Store = newStore({
    businessId,
    name: input.storeName,
    country: input.storeCountry ?? countryOfNumber(user.phone) ?? defaultCountry,
  });
  const link: ServiceProviderLink | undefined = input.serviceProvider && {
    id: randomUUID(),
    serviceProviderBusinessId: input.serviceProvider.id,
    serviceProviderBusinessName: input.serviceProvider.name,
    merchantBusinessId: businessId,
    merchantBusinessName: business.name,
    linkedAt: createdAt,
  };
  await transactWrite([
    ...userWrites(user),
    ...businessWrites(business, owner),
    membershipWrite(owner, business.name),
    ...storeWrites(store),
    ...(link ? [linkWrite(link)] : []),
    ...(input.alsoWrite ?? []),
  ]);
  return { user, business, store, link };
}

export async function onboardBusiness(caller: Caller, body: OnboardBusinessBody) {
  const provider = await getBusiness(caller.businessId);
  if (!provider) throw new BusinessNotFound();
  const { user, business, store, link } = await createOwnedBusiness({
    owner: body.owner,
    business: body.business,
    storeName: body.business.storeName ?? body.business.name,
    storeCountry: body.business.storeCountry,
    serviceProvider: provider,
  });
  count('BusinessesOnboarded');
  return {
    business: {
      id: business.id,
      name: business.name,
      activityId: business.activityId,
      apiAccessEnabled: business.apiAccessEnabled,
      verificationLevel: business.verificationLevel,
    },
    owner: { id: user.id, phone: user.phone, firstName: user.firstName, lastName: user.lastName },
    store: {
      id: store.id,
      name: store.name,
      currency: store.currency,
      country: store.country ?? defaultCountry,
    },
    link: businessLinkResponse(link as ServiceProviderLink),
  };
}

export async function listBusinessLinks(caller: Caller) {
  return (await listMerchantLinks(caller.businessId)).map(businessLinkResponse);
}

/**
 * Ends the link and, in the same transaction, revokes the keys this provider made for the merchant:
 * they stop authenticating once the containers' key caches expire. An unknown, detached or other
 * provider's link is 404 `business_not_found`.
 */
export async function detachBusinessLink(caller: Caller, merchantBusinessId: string) {
  const keyIds = await listProviderMadeKeyIds(merchantBusinessId, caller.businessId);
  const at = new Date().toISOString();
  const revocations = keyIds.map((keyId) => revokeKeyWrite(keyId, at));
  // Beyond one transaction's room, the rest go first: a key is never left working after the link.
  while (revocations.length > maxKeysRevokedWithLink) {
    await transactWrite(revocations.splice(0, 100));
  }
  await transactWrite([detachLinkWrite(caller.businessId, merchantBusinessId, at), ...revocations]);
  return { message: 'Business link detached' };
}

/** A merchant key, for a merchant this provider onboarded and is still linked to (404 otherwise). */
export async function createMerchantApiKey(
  caller: Caller,
  body: { merchantBusinessId: string; name: string },
) {
  const [merchant, link] = await Promise.all([
    getBusiness(body.merchantBusinessId),
    getLink(caller.businessId, body.merchantBusinessId),
  ]);
  if (!merchant || !link || merchant.onboardedByServiceProviderId !== caller.businessId) {
    throw new BusinessNotFound();
  }
  const { apiKey, secret } = await createApiKey({
    businessId: merchant.id,
    kind: 'merchant',
    memberId: caller.memberId,
    name: body.name,
    serviceProviderBusinessId: caller.businessId,
  });
  return createdMerchantApiKeyResponse(apiKey, secret);
}
