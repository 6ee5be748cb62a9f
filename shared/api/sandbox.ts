import { enum as enumOf, object, optional, string } from 'zod/mini';
import { endpointsIn } from '#shared/api/endpoint.ts';
import { pageQuery } from '#shared/api/pages.ts';
import { paymentLinkPathParams } from '#shared/api/payment-links.ts';
import {
  payerPhone,
  paymentMethod,
  paymentRequestPathParams,
  paymentRequestSchema,
} from '#shared/api/payment-requests.ts';
import { linkRequestPathParams, linkRequestSchema } from '#shared/api/service-providers.ts';
import { transferPathParams, transferSchema } from '#shared/api/transfers.ts';
import { playsSandboxProvider, readsTable, writesAndNotifies } from '#shared/catalogue/access.ts';

/**
 * The sandbox: what every stage but production adds so an integrator can play the payer, the
 * provider and the merchant's owner. None of it exists on production.
 */

export const sandboxLinkPaymentBody = object({ paymentMethod, payerPhone });

export const sandboxPayerBody = optional(object({ payerPhone: optional(payerPhone) }));

const checkoutParams = object({ providerReference: string() });

export const sandboxEndpoints = /* @__PURE__ */ endpointsIn('sandbox', {
  paySandboxPaymentLink: {
    method: 'POST',
    path: '/sandbox/payment_links/{id}/pay',
    caller: 'api_key',
    access: playsSandboxProvider,
    sandboxOnly: true,
    tag: 'Sandbox',
    summary: 'Pay a link as a customer (sandbox)',
    params: paymentLinkPathParams,
    body: sandboxLinkPaymentBody,
    response: paymentRequestSchema,
    responseDescription: 'The payment request the payment made.',
    errors: ['payment_link_not_found', 'E_PAYMENT_LINK_IS_INVALID', 'third_party_payment_provider_error'],
  },
  approveSandboxPaymentRequest: {
    method: 'POST',
    path: '/sandbox/payment_requests/{id}/approve',
    caller: 'api_key',
    access: playsSandboxProvider,
    sandboxOnly: true,
    tag: 'Sandbox',
    summary: 'Approve as the payer (sandbox)',
    params: paymentRequestPathParams,
    body: sandboxPayerBody,
    response: paymentRequestSchema,
    responseDescription: 'The payment request after the callback.',
    errors: ['payment_request_not_found', 'conflict'],
  },
  declineSandboxPaymentRequest: {
    method: 'POST',
    path: '/sandbox/payment_requests/{id}/decline',
    caller: 'api_key',
    access: playsSandboxProvider,
    sandboxOnly: true,
    tag: 'Sandbox',
    summary: 'Decline as the payer (sandbox)',
    params: paymentRequestPathParams,
    response: paymentRequestSchema,
    responseDescription: 'The payment request after the callback, in `error`.',
    errors: ['payment_request_not_found', 'conflict'],
  },
  sandboxCheckoutPage: {
    method: 'GET',
    path: '/sandbox/provider/checkout/{providerReference}',
    caller: 'public',
    access: readsTable,
    sandboxOnly: true,
    page: true,
    tag: 'Sandbox',
    summary: 'The sandbox provider’s approval page',
    params: checkoutParams,
    query: pageQuery,
    answers: {
      200: 'Approve or decline.',
      303: 'Already answered: back to the return page.',
      404: 'Unknown.',
    },
  },
  sandboxCheckoutAction: {
    method: 'POST',
    path: '/sandbox/provider/checkout/{providerReference}',
    caller: 'public',
    access: playsSandboxProvider,
    sandboxOnly: true,
    page: true,
    tag: 'Sandbox',
    summary: 'Approve or decline on the sandbox provider’s page',
    params: checkoutParams,
    query: pageQuery,
    form: object({ action: enumOf(['approve', 'decline']), payerPhone: optional(string()) }),
    answers: { 303: 'Back to the return page.', 400: 'The page again, with the error.', 404: 'Unknown.' },
  },
  completeSandboxTransfer: {
    method: 'POST',
    path: '/sandbox/transfers/{id}/complete',
    caller: 'api_key',
    access: playsSandboxProvider,
    sandboxOnly: true,
    tag: 'Sandbox',
    summary: 'Complete a payout (sandbox)',
    params: transferPathParams,
    response: transferSchema,
    responseDescription: 'The transfer after the callback, in `success`.',
    errors: ['transfer_not_found', 'conflict'],
  },
  failSandboxTransfer: {
    method: 'POST',
    path: '/sandbox/transfers/{id}/fail',
    caller: 'api_key',
    access: playsSandboxProvider,
    sandboxOnly: true,
    tag: 'Sandbox',
    summary: 'Fail a payout (sandbox)',
    params: transferPathParams,
    response: transferSchema,
    responseDescription: 'The transfer after the callback, in `error`, its reservation given back.',
    errors: ['transfer_not_found', 'conflict'],
  },
  approveSandboxLinkRequest: {
    method: 'POST',
    path: '/sandbox/business_link_requests/{id}/approve',
    caller: 'service_provider',
    access: writesAndNotifies,
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
    access: writesAndNotifies,
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
    access: readsTable,
    sandboxOnly: true,
    page: true,
    tag: 'Sandbox',
    summary: 'The identity form of a compliance verification (sandbox)',
    params: linkRequestPathParams,
    query: pageQuery,
    answers: { 200: 'The form while pending, the outcome afterwards.', 404: 'Unknown id.' },
  },
  submitSandboxVerificationPage: {
    method: 'POST',
    path: '/sandbox/kyc/{id}',
    caller: 'public',
    access: writesAndNotifies,
    sandboxOnly: true,
    page: true,
    tag: 'Sandbox',
    summary: 'Submit the identity form (sandbox)',
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
});
