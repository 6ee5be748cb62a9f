import { array, boolean, enum as enumOf, int, nullable, object, type output, string, uuid } from 'zod';
import type { ApiKey } from '#shared/data/api-key.ts';
import type { ServiceProviderLink } from '#shared/data/service-provider-link.ts';
import { isActivityOffered } from '#shared/domain/activities.ts';
import { instant } from '#shared/schemas/common.ts';
import type { RouteContracts } from '#shared/schemas/contract.ts';
import { pageQuery } from '#shared/schemas/pages.ts';
import { returnUrl } from '#shared/schemas/payment-requests.ts';
import { phoneNumber } from '#shared/schemas/phone-number.ts';
import { forServiceProviders } from '#shared/schemas/webhook-subscriptions.ts';

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

export const businessLinkSchema = object({
  id: uuid(),
  merchantBusinessId: uuid(),
  merchantBusinessName: string(),
  serviceProviderBusinessId: uuid(),
  serviceProviderBusinessName: string(),
  linkedAt: instant,
}).meta({
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
  businessMemberId: uuid().meta({ description: 'The provider’s member who made the key.' }),
  createdAt: instant,
  updatedAt: instant,
  key: string().meta({
    description: 'The secret (`X-API-KEY`), with `id` as `X-API-KEY-ID`: shown only here.',
  }),
}).meta({ id: 'CreatedMerchantApiKey' });

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
  callbackUrl: returnUrl.optional(),
});

const activitySchema = object({ id: string(), name: string() });

export const activityCategorySchema = object({
  id: string(),
  name: string(),
  activities: array(activitySchema),
}).meta({
  id: 'ActivityCategory',
  examples: [
    {
      id: 'food',
      name: 'Restauration',
      activities: [
        { id: 'food.maquis', name: 'Maquis' },
        { id: 'food.restaurant', name: 'Restaurant' },
      ],
    },
  ],
});

export const onboardedBusinessSchema = object({
  business: object({
    id: uuid(),
    name: string(),
    activityId: string(),
    apiAccessEnabled: boolean().meta({ description: 'True: onboarded businesses have API access.' }),
    verificationLevel: int().meta({ description: '0 until a compliance verification is approved.' }),
  }),
  owner: object({ id: uuid(), phone: string(), firstName: string(), lastName: string() }),
  store: object({ id: uuid(), name: string(), currency: string() }),
  link: businessLinkSchema,
}).meta({ id: 'OnboardedBusiness' });

export const linkRequestStatuses = ['pending', 'approved', 'declined', 'expired'] as const;

export const linkRequestSchema = object({
  id: uuid(),
  status: enumOf(linkRequestStatuses),
  merchantBusinessId: uuid(),
  merchantBusinessName: string(),
  serviceProviderBusinessId: uuid(),
  serviceProviderBusinessName: string(),
  serviceProviderMemberId: uuid(),
  ownerPhone: string().meta({ description: 'The owner’s phone, international form: the code went there.' }),
  expiresAt: instant.meta({
    description: 'Seven days after creation; a request still pending then is `expired`.',
  }),
  createdAt: instant,
}).meta({
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
export const linkRequestEventSchema = linkRequestSchema
  .extend({
    declinedReason: string()
      .optional()
      .meta({ description: '`too_many_code_attempts` when declined after the fifth wrong code.' }),
  })
  .meta({ id: 'BusinessLinkRequestEvent' });

export const complianceVerificationSchema = object({
  id: uuid(),
  type: enumOf(['kyc']),
  status: enumOf(['pending', 'approved', 'rejected']),
  merchantBusinessId: uuid(),
  url: string().meta({ description: 'The page where the merchant’s owner gives their identity.' }),
  callbackUrl: nullable(string()).meta({ description: 'Where the page sends the owner once decided.' }),
  rejectionReason: string().optional().meta({ description: 'Why it was `rejected`.' }),
}).meta({
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

export const serviceProviderContracts = {
  listActivities: {
    tag,
    summary: 'List the business activities',
    description:
      'The categories and activities a business may declare at onboarding (`business.activityId`), ' +
      'named in the `Accept-Language` language (French by default, English) and sorted by name.',
    response: array(activityCategorySchema),
    responseDescription: 'A bare array of categories.',
  },
  onboardBusiness: {
    tag,
    summary: 'Onboard a merchant business',
    description:
      'Creates the owner (a user, by phone), their business with its first store, and the link to the ' +
      'caller, in one write. The business has API access at once and verification level 0 until a ' +
      'compliance verification is approved. A phone already registered is 409 `user_already_exists`: ' +
      'ask that owner’s consent with a link request instead.',
    body: onboardBusinessBody,
    response: onboardedBusinessSchema,
    responseDescription: 'The business, its owner, its store and the link.',
    errors: ['user_already_exists', 'business_not_found'],
  },
  listBusinessLinks: {
    tag,
    summary: 'List the linked merchants',
    response: array(businessLinkSchema),
    responseDescription: 'A bare array of the caller’s current links.',
  },
  detachBusinessLink: {
    tag,
    summary: 'Detach a merchant',
    description: `${forServiceProviders} Ends the link and revokes the keys the caller made for the merchant, in the same write.`,
    params: merchantBusinessPathParams,
    response: object({ message: string().meta({ examples: ['Business link detached'] }) }),
    responseDescription: 'Detached.',
    errors: ['business_not_found'],
  },
  createMerchantApiKey: {
    tag,
    summary: 'Make an API key for a merchant',
    description:
      `${forServiceProviders} Only for a merchant the caller onboarded. Not replayed: a retry makes a ` +
      'second key, so the secret is never stored.',
    body: createMerchantApiKeyBody,
    response: createdMerchantApiKeySchema,
    responseDescription: 'The key, with its secret (shown only here).',
    errors: ['business_not_found'],
  },
  createLinkRequests: {
    tag,
    summary: 'Ask an existing owner to link their businesses',
    description:
      'One pending request per business the phone’s user owns, each with a one-time code sent by SMS ' +
      'with the consent page’s address; the caller gets a SERVICE_PROVIDER_LINK_REQUEST event as each ' +
      'is made and answered. Refused as a whole: unknown phone 404 `user_not_found`, nothing owned 409 ' +
      '`no_owned_business`, a business already linked 409 `already_linked` (its id in `extras`).',
    body: createLinkRequestsBody,
    response: array(linkRequestSchema),
    responseDescription: 'The requests, `pending`.',
    errors: ['user_not_found', 'no_owned_business', 'already_linked', 'business_not_found'],
  },
  getLinkRequest: {
    tag,
    summary: 'Get a link request',
    description: 'Only the provider that made it sees it. A request past `expiresAt` is answered `expired`.',
    params: linkRequestPathParams,
    response: linkRequestSchema,
    responseDescription: 'The request as it is now.',
    errors: ['business_link_request_not_found'],
  },
  linkRequestPage: {
    page: true,
    tag: 'Hosted pages',
    summary: 'The owner’s consent page of a link request',
    params: linkRequestPathParams,
    query: pageQuery,
    answers: { 200: 'The code field with approve and decline, or the outcome.', 404: 'Unknown id.' },
  },
  submitLinkRequestPage: {
    page: true,
    tag: 'Hosted pages',
    summary: 'Approve or decline with the SMS code',
    params: linkRequestPathParams,
    query: pageQuery,
    form: object({
      code: string().meta({ description: 'The six digits sent by SMS.' }),
      decision: enumOf(['approve', 'decline']),
    }),
    answers: {
      200: 'The outcome; the fifth wrong code declines the request.',
      400: 'A wrong code: the page again, with the attempts left.',
      404: 'Unknown id.',
    },
  },
  approveSandboxLinkRequest: {
    tag: 'Sandbox',
    summary: 'Approve a link request as the owner (sandbox)',
    description: 'Without the code, for the provider’s own tests; the event follows as on the page.',
    params: linkRequestPathParams,
    response: linkRequestSchema,
    responseDescription: 'The request, `approved`.',
    errors: ['business_link_request_not_found', 'conflict'],
  },
  declineSandboxLinkRequest: {
    tag: 'Sandbox',
    summary: 'Decline a link request as the owner (sandbox)',
    params: linkRequestPathParams,
    response: linkRequestSchema,
    responseDescription: 'The request, `declined`.',
    errors: ['business_link_request_not_found', 'conflict'],
  },
  createComplianceVerification: {
    tag,
    summary: 'Start a compliance verification of a merchant',
    description:
      `${forServiceProviders} Answers the merchant’s open verification of this type if there is one. ` +
      'The owner gives their identity at `url`; approval raises the business’s verification level, ' +
      'and the caller gets a COMPLIANCE_VERIFICATION_COMPLETED event.',
    body: createComplianceVerificationBody,
    response: complianceVerificationSchema,
    responseDescription: 'The verification, `pending`.',
    errors: ['business_not_found'],
  },
  sandboxVerificationPage: {
    page: true,
    tag: 'Sandbox',
    summary: 'The identity form of a compliance verification (sandbox)',
    params: linkRequestPathParams,
    query: pageQuery,
    answers: { 200: 'The form while pending, the outcome afterwards.', 404: 'Unknown id.' },
  },
  submitSandboxVerificationPage: {
    page: true,
    tag: 'Sandbox',
    summary: 'Submit the identity form (sandbox)',
    description: 'An identity document number ending in `0000` is rejected; any other is approved.',
    params: linkRequestPathParams,
    query: pageQuery,
    form: object({ firstName: string(), lastName: string(), idNumber: string(), dateOfBirth: string() }),
    answers: {
      200: 'The outcome.',
      303: 'To `callbackUrl`, with `verificationId` and `status` added to its query.',
      400: 'The form again, with the missing fields.',
      404: 'Unknown id.',
    },
  },
} as const satisfies RouteContracts;
