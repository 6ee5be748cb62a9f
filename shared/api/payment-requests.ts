import {
  boolean,
  enum as enumOf,
  globalRegistry,
  iso,
  maxLength,
  minLength,
  nullable,
  object,
  optional,
  type output,
  regex,
  string,
  superRefine,
  trim,
  uuid,
} from 'zod/mini';
import { executedAt, instant, money, paymentMethodInput, wholeFrancCents } from '#shared/api/common.ts';
import { endpointsIn } from '#shared/api/endpoint.ts';
import { escrowTermsBody } from '#shared/api/escrows.ts';
import { refuseUnservedNumber, zoneMobileNumber } from '#shared/api/phone-number.ts';
import { startsCollections } from '#shared/catalogue/access.ts';
import type { PaymentRequest } from '#shared/data/payment-request.ts';
import { providerCodes } from '#shared/domain/payment-methods.ts';
import { refusedReturnUrl } from '#shared/domain/return-urls.ts';

/** Web addresses or app deep links (`myapp://paid?reference=x`), with the client's own query string. */
export const returnUrl = string()
  .check(
    maxLength(2048),
    regex(/^[a-zA-Z][a-zA-Z0-9+.-]*:\S+$/, {
      message: 'must be an absolute URL or app link (scheme:...)',
      abort: true,
    }),
  )
  .check(
    superRefine((url, context) => {
      const reason = refusedReturnUrl(url);
      if (reason)
        context.addIssue({
          code: 'custom',
          params: { rule: 'url' },
          message: `The URL is not allowed: ${reason}.`,
        });
    }),
  );

import { maxAmountCents } from '#shared/domain/money.ts';

export { maxAmountCents };

export const payerPhone = zoneMobileNumber('payerPhone');

const providersDescription = 'The mobile-money provider: Orange Money, Wave, MTN MoMo, Moov Money, Djamo.';

/** The method as answered: always a provider's code. */
export const paymentMethod = enumOf(providerCodes).register(globalRegistry, {
  id: 'PaymentMethod',
  description: providersDescription,
});

/** The method as a request gives it: a provider's code, or an alias of one. */
export const paymentMethodGiven = paymentMethodInput(providerCodes, providersDescription);

export const createPaymentRequestBody = object({
  storeId: uuid(),
  amountCents: wholeFrancCents(100).register(globalRegistry, { description: 'Cents: 150000 is 1 500 XOF.' }),
  currency: string().check(regex(/^[A-Z]{3}$/, 'must be a 3-letter ISO 4217 code')),
  reference: string().check(minLength(1), maxLength(100)).register(globalRegistry, {
    description: 'Yours, unique per business: a second request with it answers 409.',
  }),
  description: optional(string().check(trim(), minLength(1), maxLength(255))).register(globalRegistry, {
    description: 'What the payer pays for, shown on the hosted page and carried into the transaction.',
  }),
  escrow: optional(escrowTermsBody).register(globalRegistry, {
    description: 'Hold the payment in escrow (platform keys only).',
  }),
  expiresAt: optional(iso.datetime({ offset: true })).register(globalRegistry, {
    description:
      'Until when the request may be paid: at least a minute from now (the stage’s minimum), at most 7 days. 30 minutes from now by default.',
    examples: ['2026-11-20T14:37:31Z'],
  }),
  paymentDetails: object({
    type: enumOf(['redirect', 'soundbox']),
    data: object({
      paymentMethod: paymentMethodGiven,
      successUrl: optional(returnUrl).register(globalRegistry, {
        description: 'Required for `redirect`: where the payer is sent back after a success.',
      }),
      errorUrl: optional(returnUrl).register(globalRegistry, {
        description: 'Required for `redirect`: where the payer is sent back after a failure.',
      }),
      deviceId: optional(string().check(minLength(1), maxLength(128))).register(globalRegistry, {
        description: 'Required for `soundbox`: the terminal that shows the QR code.',
      }),
      forceProviderDirect: optional(boolean()).register(globalRegistry, {
        description: 'Prompt the payer’s phone at once, with no page; needs `payerPhone`.',
      }),
      payerPhone: optional(payerPhone),
    }),
  }),
})
  .register(globalRegistry, {
    examples: [
      {
        storeId: '4280b1d6-1f3c-4d53-9a7e-2f1c0c6a9b10',
        amountCents: 1_500_000,
        currency: 'XOF',
        reference: 'commande-2042',
        paymentDetails: {
          type: 'redirect',
          data: {
            paymentMethod: 'wave',
            successUrl: 'https://boutique-awa.ci/commandes/2042/merci',
            errorUrl: 'https://boutique-awa.ci/commandes/2042/echec',
          },
        },
      },
    ],
  })
  .check(
    superRefine((body, context) => {
      const { type, data } = body.paymentDetails;
      // The payer of a redirect is sent back to the merchant; a soundbox payer stays at the till.
      if (type === 'redirect') {
        for (const field of ['successUrl', 'errorUrl'] as const) {
          if (data[field] !== undefined) continue;
          context.addIssue({
            code: 'custom',
            path: ['paymentDetails', 'data', field],
            params: { rule: 'required' },
            message: `The paymentDetails.data.${field} field is required when paymentDetails.type is redirect.`,
          });
        }
      }
      if (type === 'soundbox' && data.deviceId === undefined) {
        context.addIssue({
          code: 'custom',
          path: ['paymentDetails', 'data', 'deviceId'],
          params: { rule: 'required' },
          message: 'The paymentDetails.data.deviceId field is required when paymentDetails.type is soundbox.',
        });
      }
      if (data.forceProviderDirect === true && data.payerPhone === undefined) {
        context.addIssue({
          code: 'custom',
          path: ['paymentDetails', 'data', 'payerPhone'],
          params: { rule: 'required' },
          message:
            'The paymentDetails.data.payerPhone field is required when paymentDetails.data.forceProviderDirect is true.',
        });
      }
      if (data.payerPhone !== undefined)
        refuseUnservedNumber(
          context,
          ['paymentDetails', 'data', 'payerPhone'],
          data.paymentMethod,
          data.payerPhone,
        );
    }),
  );

export type CreatePaymentRequestBody = ReturnType<typeof createPaymentRequestBody.parse>;

export const paymentRequestPathParams = object({ id: uuid() });

const completedTransaction = object({
  id: uuid(),
  amount: money,
  fees: money,
  status: enumOf(['success', 'error']),
  counterpartLabel: string(),
  counterpartIdentifier: string().register(globalRegistry, {
    description: 'The payer’s phone, or the terminal id.',
  }),
  description: string(),
  executedAt,
}).register(globalRegistry, { id: 'CompletedTransaction' });

export const paymentRequestSchema = object({
  id: uuid(),
  storeId: uuid(),
  reference: string(),
  description: optional(string()),
  type: enumOf(['redirect', 'soundbox']),
  paymentMethod,
  status: enumOf(['pending', 'success', 'error']),
  errorReason: nullable(string()).register(globalRegistry, {
    description:
      'Why it ended in `error`: `declined`, `insufficient_funds`, `expired`, `cancelled`, `abandoned`, `collection_ceiling_exceeded`, ...',
  }),
  transaction: nullable(completedTransaction).register(globalRegistry, {
    description: 'Once the provider has answered.',
  }),
  redirectUrl: string().register(globalRegistry, {
    description: 'The hosted payment page to send the payer to.',
  }),
  amount: money,
  amountRefunded: money.clone().register(globalRegistry, {
    description: 'What refunds of the payment have paid back to the payer so far.',
  }),
  deviceId: optional(string()),
  deviceOnline: optional(boolean()).register(globalRegistry, {
    description: 'A created `soundbox` request: whether its terminal is online to show the QR.',
  }),
  paymentLinkId: optional(uuid()),
  escrowId: optional(uuid()).register(globalRegistry, {
    description: 'The escrow the payment lands in, when a platform key asked for one.',
  }),
  expiresAt: iso.datetime().register(globalRegistry, {
    examples: ['2026-11-20T14:37:31.120Z'],
    description:
      'Until when it may be paid. Past it, unpaid, it is `error` / `expired` (a collection under way then has 2 minutes more for the provider’s answer).',
  }),
  createdAt: instant,
}).register(globalRegistry, {
  id: 'PaymentRequest',
  examples: [
    {
      id: '4130c5e2-8a4f-4d0b-b0f1-6f0f2e7b9a11',
      storeId: '4280b1d6-1f3c-4d53-9a7e-2f1c0c6a9b10',
      reference: 'commande-2042',
      type: 'redirect',
      paymentMethod: 'wave',
      status: 'success',
      errorReason: null,
      transaction: {
        id: 'bfe37c2f-5b1d-4c1e-9d7a-0d3e6a2f4b55',
        amount: { amount: 1_500_000, currency: 'XOF' },
        fees: { amount: 15_000, currency: 'XOF' },
        status: 'success',
        counterpartLabel: 'Aminata Koné',
        counterpartIdentifier: '+2250700000001',
        description: 'Paiement commande-2042',
        executedAt: '2026-11-20 14:08:55',
      },
      redirectUrl: 'https://pay.example.ci/payment/4130c5e2-8a4f-4d0b-b0f1-6f0f2e7b9a11',
      amount: { amount: 1_500_000, currency: 'XOF' },
      expiresAt: '2026-11-20T14:37:31.120Z',
      amountRefunded: { amount: 0, currency: 'XOF' },
      createdAt: '2026-11-20T14:07:31.120Z',
    },
  ],
});

export type PaymentRequestResponse = output<typeof paymentRequestSchema>;

/** The payment request as integrations read it: create answer and GET answer alike. */
export function paymentRequestResponse(request: PaymentRequest): PaymentRequestResponse {
  return {
    id: request.id,
    storeId: request.storeId,
    reference: request.reference,
    ...(request.description ? { description: request.description } : {}),
    type: request.type,
    paymentMethod: request.paymentMethod,
    status: request.status,
    errorReason: request.errorReason,
    transaction: request.transaction,
    redirectUrl: request.redirectUrl,
    amount: { amount: request.amountCents, currency: request.currency },
    amountRefunded: { amount: request.refundedCents ?? 0, currency: request.currency },
    ...(request.deviceId ? { deviceId: request.deviceId } : {}),
    ...(request.paymentLinkId ? { paymentLinkId: request.paymentLinkId } : {}),
    ...(request.escrow ? { escrowId: request.escrow.id } : {}),
    expiresAt: request.expiresAt,
    createdAt: request.createdAt,
  };
}

export const paymentRequestEndpoints = /* @__PURE__ */ endpointsIn('payment-requests', {
  createPaymentRequest: {
    // The sandbox queue exists only on sandbox stages; production gets no grant for it.
    method: 'POST',
    path: '/partner_api/payment_requests',
    caller: 'api_key',
    access: [
      // Query: whether the operator is down (shared/providers/operator-health.ts).
      'table:Query',
      'table:GetItem',
      'table:PutItem',
      'table:UpdateItem',
      'table:DeleteItem',
      ...startsCollections,
      'device:push',
    ],
    tag: 'Payment requests',
    summary: 'Create a payment request',
    body: createPaymentRequestBody,
    response: paymentRequestSchema,
    responseDescription: 'The payment request, `pending`.',
    idempotent: true,
    errors: [
      'store_not_found',
      'device_not_found',
      'payment_request_exists_with_reference',
      'third_party_payment_provider_error',
      // The operator is down for now: nothing written; Retry-After says when to try again.
      'provider_unavailable',
      'collection_ceiling_exceeded',
      'forbidden_action',
      // Only with a lifetime shorter than the provider's answer to a direct or soundbox start.
      'payment_request_expired',
    ],
  },
  getPaymentRequest: {
    method: 'GET',
    path: '/partner_api/payment_requests/{id}',
    caller: 'api_key',
    access: ['table:GetItem', 'table:UpdateItem'],
    tag: 'Payment requests',
    summary: 'Get a payment request',
    params: paymentRequestPathParams,
    response: paymentRequestSchema,
    responseDescription: 'The payment request as it is now.',
    errors: ['payment_request_not_found'],
  },
  cancelPaymentRequest: {
    method: 'POST',
    path: '/partner_api/payment_requests/{id}/cancel',
    caller: 'api_key',
    access: ['table:GetItem', 'table:PutItem', 'table:UpdateItem', 'device:push'],
    tag: 'Payment requests',
    summary: 'Cancel a payment request',
    params: paymentRequestPathParams,
    response: paymentRequestSchema,
    responseDescription:
      'The payment request, `error` / `cancelled` (again the same when cancelled already).',
    errors: ['payment_request_not_found', 'payment_request_not_cancellable'],
  },
});
