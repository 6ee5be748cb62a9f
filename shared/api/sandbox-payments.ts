import { enum as enumOf, object, optional, string, superRefine } from 'zod/mini';
import { endpointsIn } from '#shared/api/endpoint.ts';
import { pageQuery } from '#shared/api/pages.ts';
import { paymentLinkPathParams } from '#shared/api/payment-links.ts';
import {
  payerPhone,
  paymentMethodGiven,
  paymentRequestPathParams,
  paymentRequestSchema,
} from '#shared/api/payment-requests.ts';
import { refuseUnservedNumber } from '#shared/api/phone-number.ts';
import { type AwsAccess, playsSandboxProvider } from '#shared/catalogue/access.ts';

/**
 * The sandbox's payments: what every stage but production adds so an integrator can play the
 * payer, in their app or on the provider's page. None of it exists on production.
 */

export const sandboxLinkPaymentBody = object({ paymentMethod: paymentMethodGiven, payerPhone }).check(
  superRefine((body, context) =>
    refuseUnservedNumber(context, ['payerPhone'], body.paymentMethod, body.payerPhone),
  ),
);

export const sandboxPayerBody = optional(object({ payerPhone: optional(payerPhone) }));

const checkoutParams = object({ providerReference: string() });

/** The sandbox's payer answers, then leaves: a failed payment ends with its webhook (and a soundbox cleared). */
const paysAndLeaves: readonly AwsAccess[] = [...playsSandboxProvider, 'device:push'];

export const sandboxPaymentEndpoints = /* @__PURE__ */ endpointsIn('sandbox', {
  paySandboxPaymentLink: {
    method: 'POST',
    path: '/sandbox/payment_links/{id}/pay',
    caller: 'api_key',
    access: [
      // Query: whether the operator is down (shared/providers/operator-health.ts).
      'table:Query',
      'table:GetItem',
      'table:PutItem',
      'table:UpdateItem',
      'table:DeleteItem',
      'table:ConditionCheckItem',
      ...paysAndLeaves,
    ],
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
    access: [
      // Query: whether the operator is down (shared/providers/operator-health.ts).
      'table:Query',
      'table:GetItem',
      'table:PutItem',
      'table:UpdateItem',
      'table:DeleteItem',
      ...paysAndLeaves,
    ],
    sandboxOnly: true,
    tag: 'Sandbox',
    summary: 'Approve as the payer (sandbox)',
    params: paymentRequestPathParams,
    body: sandboxPayerBody,
    response: paymentRequestSchema,
    responseDescription: 'The payment request after the callback.',
    errors: ['payment_request_not_found', 'conflict', 'payment_request_expired'],
  },
  declineSandboxPaymentRequest: {
    method: 'POST',
    path: '/sandbox/payment_requests/{id}/decline',
    caller: 'api_key',
    access: [
      // Query: whether the operator is down (shared/providers/operator-health.ts).
      'table:Query',
      'table:GetItem',
      'table:PutItem',
      'table:UpdateItem',
      'table:DeleteItem',
      ...paysAndLeaves,
    ],
    sandboxOnly: true,
    tag: 'Sandbox',
    summary: 'Decline as the payer (sandbox)',
    params: paymentRequestPathParams,
    response: paymentRequestSchema,
    responseDescription: 'The payment request after the callback, in `error`.',
    errors: ['payment_request_not_found', 'conflict', 'payment_request_expired'],
  },
  sandboxCheckoutPage: {
    method: 'GET',
    path: '/sandbox/provider/checkout/{providerReference}',
    caller: 'public',
    access: ['table:GetItem'],
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
    access: ['table:GetItem', 'table:UpdateItem', ...playsSandboxProvider],
    sandboxOnly: true,
    page: true,
    tag: 'Sandbox',
    summary: 'Approve or decline on the sandbox provider’s page',
    params: checkoutParams,
    query: pageQuery,
    form: object({ action: enumOf(['approve', 'decline']), payerPhone: optional(string()) }),
    answers: { 303: 'Back to the return page.', 400: 'The page again, with the error.', 404: 'Unknown.' },
  },
});
