import { object, string } from 'zod/mini';
import { endpointsIn } from '#shared/api/endpoint.ts';
import { pageQuery } from '#shared/api/pages.ts';
import { linkRequestPathParams, linkRequestSchema } from '#shared/api/service-providers.ts';

/**
 * The sandbox's link requests and identity checks: the merchant's owner answering a service
 * provider, and the identity form of a compliance verification. Not on production.
 */
export const sandboxLinkRequestEndpoints = /* @__PURE__ */ endpointsIn('sandbox', {
  approveSandboxLinkRequest: {
    method: 'POST',
    path: '/sandbox/business_link_requests/{id}/approve',
    caller: 'service_provider',
    access: ['table:GetItem', 'table:PutItem', 'table:UpdateItem'],
    sandboxOnly: true,
    tag: 'Sandbox',
    summary: 'Approve a link request as the owner (sandbox)',
    params: linkRequestPathParams,
    response: linkRequestSchema,
    responseDescription: 'The request, `approved`.',
    errors: ['business_link_request_not_found', 'conflict'],
  },
  declineSandboxLinkRequest: {
    method: 'POST',
    path: '/sandbox/business_link_requests/{id}/decline',
    caller: 'service_provider',
    access: ['table:GetItem', 'table:PutItem', 'table:UpdateItem'],
    sandboxOnly: true,
    tag: 'Sandbox',
    summary: 'Decline a link request as the owner (sandbox)',
    params: linkRequestPathParams,
    response: linkRequestSchema,
    responseDescription: 'The request, `declined`.',
    errors: ['business_link_request_not_found', 'conflict'],
  },
  sandboxVerificationPage: {
    method: 'GET',
    path: '/sandbox/kyc/{id}',
    caller: 'public',
    access: ['table:GetItem'],
    sandboxOnly: true,
    page: true,
    tag: 'Sandbox',
    summary: 'The former address of a compliance verification’s page (sandbox): to the dashboard’s',
    params: linkRequestPathParams,
    query: pageQuery,
    answers: { 303: 'To the verification’s page on the dashboard.', 404: 'Unknown id.' },
  },
  submitSandboxVerificationPage: {
    method: 'POST',
    path: '/sandbox/kyc/{id}',
    caller: 'public',
    // Query: the business's store, whose country is the ID's Smile ID looks up; the secret:
    // Smile ID's key, on a sandbox stage whose identity vendor is Smile ID.
    access: ['table:GetItem', 'table:Query', 'table:UpdateItem', 'table:DeleteItem', 'secret:identity'],
    sandboxOnly: true,
    page: true,
    tag: 'Sandbox',
    summary: 'Submit the identity form (sandbox)',
    params: linkRequestPathParams,
    query: pageQuery,
    // The date of birth in three fields (day, month, year), as the GOV.UK date input asks it.
    form: object({
      firstName: string(),
      lastName: string(),
      idNumber: string(),
      'dateOfBirth-day': string(),
      'dateOfBirth-month': string(),
      'dateOfBirth-year': string(),
    }),
    answers: {
      200: 'The outcome.',
      303: 'To `callbackUrl`, with `verificationId` and `status` added to its query.',
      400: 'The form again, with what is missing or wrong in each field.',
      404: 'Unknown id.',
    },
  },
});
