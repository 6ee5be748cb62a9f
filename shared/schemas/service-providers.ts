import { enum as enumOf, object, string, uuid } from 'zod';
import type { ApiKey } from '#shared/data/api-key.ts';
import type { ServiceProviderLink } from '#shared/data/service-provider-link.ts';
import { isActivityOffered } from '#shared/domain/activities.ts';
import { returnUrl } from '#shared/schemas/payment-requests.ts';
import { phoneNumber } from '#shared/schemas/phone-number.ts';

const name = string().trim().min(1).max(100);

export const onboardBusinessBody = object({
  owner: object({
    phone: phoneNumber('owner.phone'),
    firstName: name,
    lastName: name,
    email: string().email().max(254).optional(),
  }),
  business: object({
    name: string().trim().min(1).max(255),
    // An unknown or disabled activity is a value outside the list: rule `in`.
    activityId: string().refine(isActivityOffered, {
      params: { rule: 'in' },
      message:
        'The business.activityId field must be the id of an activity listed by GET /partner_api/service_providers/activities.',
    }),
    storeName: string().trim().min(1).max(255).optional(),
    referralCode: string().trim().min(1).max(64).optional(),
  }),
});

export type OnboardBusinessBody = ReturnType<typeof onboardBusinessBody.parse>;

export const merchantBusinessPathParams = object({ merchantBusinessId: uuid() });

export const createMerchantApiKeyBody = object({
  merchantBusinessId: uuid(),
  name: string().trim().min(1).max(255),
});

/** The interface's Business link. */
export const businessLinkResponse = (link: ServiceProviderLink) => ({
  id: link.id,
  merchantBusinessId: link.merchantBusinessId,
  merchantBusinessName: link.merchantBusinessName,
  serviceProviderBusinessId: link.serviceProviderBusinessId,
  serviceProviderBusinessName: link.serviceProviderBusinessName,
  linkedAt: link.linkedAt,
});

/** The interface's Merchant API key, with its secret: only the creation answers it. */
export const createdMerchantApiKeyResponse = (apiKey: ApiKey, secret: string) => ({
  id: apiKey.id,
  name: apiKey.name,
  businessId: apiKey.businessId,
  businessMemberId: apiKey.memberId,
  createdAt: apiKey.createdAt,
  updatedAt: apiKey.updatedAt,
  key: secret,
});

export const createLinkRequestsBody = object({ phone: phoneNumber('phone') });

export const linkRequestPathParams = object({ id: uuid() });

export const createComplianceVerificationBody = object({
  type: enumOf(['kyc']),
  merchantBusinessId: uuid(),
  callbackUrl: returnUrl.optional(),
});
