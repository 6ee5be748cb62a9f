import {
  array,
  boolean,
  email,
  enum as enumOf,
  extend,
  globalRegistry,
  int,
  maxLength,
  minLength,
  nullable,
  object,
  optional,
  type output,
  refine,
  string,
  trim,
  uuid,
} from 'zod/mini';
import { instant } from '#shared/api/common.ts';
import { endpointsIn } from '#shared/api/endpoint.ts';
import { returnUrl } from '#shared/api/payment-requests.ts';
import { phoneNumber } from '#shared/api/phone-number.ts';
import { readsTable } from '#shared/catalogue/access.ts';
import type { ApiKey } from '#shared/data/api-key.ts';
import type { ServiceProviderLink } from '#shared/data/service-provider-link.ts';
import { isActivityOffered } from '#shared/domain/activities.ts';
import { uemoaCountries } from '#shared/domain/uemoa-countries.ts';

const name = string().check(trim(), minLength(1), maxLength(100));

export const onboardBusinessBody = object({
  owner: object({
    phone: phoneNumber('owner.phone'),
    firstName: name,
    lastName: name,
    email: optional(string().check(email(), maxLength(254))),
  }),
  business: object({
    name: string().check(trim(), minLength(1), maxLength(255)),
    // An unknown or disabled activity is a value outside the list: rule `in`.
    activityId: string().check(
      refine(isActivityOffered, {
        params: { rule: 'in' },
        message:
          'The business.activityId field must be the id of an activity listed by GET /partner_api/service_providers/activities.',
      }),
    ),
    storeName: optional(string().check(trim(), minLength(1), maxLength(255))),
    storeCountry: optional(enumOf(uemoaCountries)).register(globalRegistry, {
      description:
        'The first store’s country (ISO 3166-1 alpha-2, one of the eight UEMOA countries); by default the owner’s phone’s, else `CI`.',
    }),
    referralCode: optional(string().check(trim(), minLength(1), maxLength(64))),
  }),
});

export type OnboardBusinessBody = ReturnType<typeof onboardBusinessBody.parse>;

export const merchantBusinessPathParams = object({ merchantBusinessId: uuid() });

export const createMerchantApiKeyBody = object({
  merchantBusinessId: uuid(),
  name: string().check(trim(), minLength(1), maxLength(255)),
});

export const businessLinkSchema = object({
  id: uuid(),
  merchantBusinessId: uuid(),
  merchantBusinessName: string(),
  serviceProviderBusinessId: uuid(),
  serviceProviderBusinessName: string(),
  linkedAt: instant,
}).register(globalRegistry, {
  id: 'BusinessLink',
  examples: [
    {
      id: '5d6e7f80-9a1b-4c2d-8e3f-4a5b6c7d8e9f',
      merchantBusinessId: '0b6f2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
      merchantBusinessName: 'Boutique Awa',
      serviceProviderBusinessId: '7a8b9c0d-1e2f-4a3b-8c4d-5e6f7a8b9c0d',
      serviceProviderBusinessName: 'Caisse Pro',
      linkedAt: '2026-11-20T09:00:00.000Z',
    },
  ],
});

/** The interface's Business link. */
export const businessLinkResponse = (link: ServiceProviderLink): output<typeof businessLinkSchema> => ({
  id: link.id,
  merchantBusinessId: link.merchantBusinessId,
  merchantBusinessName: link.merchantBusinessName,
  serviceProviderBusinessId: link.serviceProviderBusinessId,
  serviceProviderBusinessName: link.serviceProviderBusinessName,
  linkedAt: link.linkedAt,
});

export const createdMerchantApiKeySchema = object({
  id: uuid(),
  name: string(),
  businessId: uuid(),
  businessMemberId: uuid().register(globalRegistry, {
    description: 'The provider’s member who made the key.',
  }),
  createdAt: instant,
  updatedAt: instant,
  key: string().register(globalRegistry, {
    description: 'The secret (`X-API-KEY`), with `id` as `X-API-KEY-ID`: shown only here.',
  }),
}).register(globalRegistry, { id: 'CreatedMerchantApiKey' });

/** The interface's Merchant API key, with its secret: only the creation answers it. */
export const createdMerchantApiKeyResponse = (
  apiKey: ApiKey,
  secret: string,
): output<typeof createdMerchantApiKeySchema> => ({
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
  callbackUrl: optional(returnUrl),
});

export const onboardedBusinessSchema = object({
  business: object({
    id: uuid(),
    name: string(),
    activityId: string(),
    apiAccessEnabled: boolean().register(globalRegistry, {
      description: 'True: onboarded businesses have API access.',
    }),
    verificationLevel: int().register(globalRegistry, {
      description: '0 until a compliance verification is approved.',
    }),
  }),
  owner: object({ id: uuid(), phone: string(), firstName: string(), lastName: string() }),
  store: object({ id: uuid(), name: string(), currency: string(), country: enumOf(uemoaCountries) }),
  link: businessLinkSchema,
}).register(globalRegistry, { id: 'OnboardedBusiness' });

export const linkRequestStatuses = ['pending', 'approved', 'declined', 'expired'] as const;

export const linkRequestSchema = object({
  id: uuid(),
  status: enumOf(linkRequestStatuses),
  merchantBusinessId: uuid(),
  merchantBusinessName: string(),
  serviceProviderBusinessId: uuid(),
  serviceProviderBusinessName: string(),
  serviceProviderMemberId: uuid(),
  ownerPhone: string().register(globalRegistry, {
    description: 'The owner’s phone, international form: the code went there.',
  }),
  expiresAt: instant.clone().register(globalRegistry, {
    description: 'Seven days after creation; a request still pending then is `expired`.',
  }),
  createdAt: instant,
}).register(globalRegistry, {
  id: 'BusinessLinkRequest',
  examples: [
    {
      id: '9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a',
      status: 'pending',
      merchantBusinessId: '0b6f2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
      merchantBusinessName: 'Boutique Awa',
      serviceProviderBusinessId: '7a8b9c0d-1e2f-4a3b-8c4d-5e6f7a8b9c0d',
      serviceProviderBusinessName: 'Caisse Pro',
      serviceProviderMemberId: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
      ownerPhone: '+2250700000001',
      expiresAt: '2026-11-27T09:00:00.000Z',
      createdAt: '2026-11-20T09:00:00.000Z',
    },
  ],
});

export type LinkRequestResponse = output<typeof linkRequestSchema>;

/** The body of SERVICE_PROVIDER_LINK_REQUEST: the request as it now is. */
export const linkRequestEventSchema = extend(linkRequestSchema, {
  declinedReason: optional(string()).register(globalRegistry, {
    description: '`too_many_code_attempts` when declined after the fifth wrong code.',
  }),
}).register(globalRegistry, { id: 'BusinessLinkRequestEvent' });

export const complianceVerificationSchema = object({
  id: uuid(),
  type: enumOf(['kyc']),
  status: enumOf(['pending', 'approved', 'rejected']),
  merchantBusinessId: uuid(),
  url: string().register(globalRegistry, {
    description: 'The page where the merchant’s owner gives their identity.',
  }),
  callbackUrl: nullable(string()).register(globalRegistry, {
    description: 'Where the page sends the owner once decided.',
  }),
  rejectionReason: optional(string()).register(globalRegistry, { description: 'Why it was `rejected`.' }),
}).register(globalRegistry, {
  id: 'ComplianceVerification',
  examples: [
    {
      id: '3e4f5a6b-7c8d-4e9f-8a0b-1c2d3e4f5a6b',
      type: 'kyc',
      status: 'pending',
      merchantBusinessId: '0b6f2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
      url: 'https://sandbox.example.com/sandbox/kyc/3e4f5a6b-7c8d-4e9f-8a0b-1c2d3e4f5a6b',
      callbackUrl: 'https://caisse-pro.example/kyc/done',
    },
  ],
});

export type ComplianceVerificationResponse = output<typeof complianceVerificationSchema>;

const tag = 'Service providers';

export const serviceProviderEndpoints = /* @__PURE__ */ endpointsIn('service-providers', {
  onboardBusiness: {
    method: 'POST',
    path: '/partner_api/service_providers/business_onboarding',
    caller: 'service_provider',
    access: ['table:GetItem', 'table:PutItem', 'table:UpdateItem'],
    tag,
    summary: 'Onboard a merchant business',
    body: onboardBusinessBody,
    response: onboardedBusinessSchema,
    responseDescription: 'The business, its owner, its store and the link.',
    errors: ['user_already_exists', 'business_not_found'],
  },
  listBusinessLinks: {
    method: 'GET',
    path: '/partner_api/service_providers/business_links',
    caller: 'service_provider',
    access: [...readsTable, 'table:UpdateItem'],
    tag,
    summary: 'List the linked merchants',
    response: array(businessLinkSchema),
    responseDescription: 'A bare array of the caller’s current links.',
  },
  detachBusinessLink: {
    method: 'DELETE',
    path: '/partner_api/service_providers/business_links/{merchantBusinessId}',
    caller: 'service_provider',
    access: ['table:GetItem', 'table:Query', 'table:UpdateItem'],
    tag,
    summary: 'Detach a merchant',
    params: merchantBusinessPathParams,
    response: object({
      message: string().register(globalRegistry, { examples: ['Business link detached'] }),
    }),
    responseDescription: 'Detached.',
    errors: ['business_not_found'],
  },
  createMerchantApiKey: {
    method: 'POST',
    path: '/partner_api/service_providers/business_api_keys',
    caller: 'service_provider',
    access: ['table:GetItem', 'table:PutItem', 'table:ConditionCheckItem', 'table:UpdateItem'],
    tag,
    summary: 'Make an API key for a merchant',
    body: createMerchantApiKeyBody,
    response: createdMerchantApiKeySchema,
    responseDescription: 'The key, with its secret (shown only here).',
    errors: ['business_not_found'],
  },
  createLinkRequests: {
    // Sends the owner's code by SMS and the `pending` event to the provider at once.
    method: 'POST',
    path: '/partner_api/service_providers/business_link_requests',
    caller: 'service_provider',
    access: ['table:GetItem', 'table:Query', 'table:PutItem', 'table:UpdateItem'],
    tag,
    summary: 'Ask an existing owner to link their businesses',
    body: createLinkRequestsBody,
    response: array(linkRequestSchema),
    responseDescription: 'The requests, `pending`.',
    errors: ['user_not_found', 'no_owned_business', 'already_linked', 'business_not_found'],
  },
  getLinkRequest: {
    // Writes: a request past its time is settled `expired` when read, and its event sent.
    method: 'GET',
    path: '/partner_api/service_providers/business_link_requests/{id}',
    caller: 'service_provider',
    access: ['table:GetItem', 'table:PutItem', 'table:UpdateItem'],
    tag,
    summary: 'Get a link request',
    params: linkRequestPathParams,
    response: linkRequestSchema,
    responseDescription: 'The request as it is now.',
    errors: ['business_link_request_not_found'],
  },
  createComplianceVerification: {
    method: 'POST',
    path: '/partner_api/service_providers/compliance_verifications',
    caller: 'service_provider',
    access: ['table:GetItem', 'table:PutItem', 'table:UpdateItem'],
    tag,
    summary: 'Start a compliance verification of a merchant',
    body: createComplianceVerificationBody,
    response: complianceVerificationSchema,
    responseDescription: 'The verification, `pending`.',
    errors: ['business_not_found'],
  },
});
