import {
  _default,
  coerce,
  enum as enumOf,
  globalRegistry,
  gte,
  int,
  lte,
  maxLength,
  minLength,
  nullable,
  object,
  optional,
  type output,
  string,
  uuid,
} from 'zod/mini';
import { idPathParams, instant, money, pageOf, wholeFrancCents } from '#shared/api/common.ts';
import { endpointsIn } from '#shared/api/endpoint.ts';
import { paysOut } from '#shared/catalogue/access.ts';
import type { Refund } from '#shared/data/refund.ts';
import { providerCodes } from '#shared/domain/payment-methods.ts';

export const createRefundBody = object({
  paymentRequestId: uuid().register(globalRegistry, { description: 'The paid payment request to refund.' }),
  amountCents: optional(wholeFrancCents(100)).register(globalRegistry, {
    description: 'Cents to give back; by default, all that remains refundable of the payment.',
  }),
  reference: string()
    .check(minLength(1), maxLength(100))
    .register(globalRegistry, { description: 'Yours, unique per business.' }),
  reason: optional(string().check(maxLength(255))).register(globalRegistry, {
    description: 'Why, as the payer will read it in the transaction list.',
  }),
});

export type CreateRefundBody = output<typeof createRefundBody>;

export const refundPathParams = idPathParams;

export const listRefundsQuery = object({
  paymentRequestId: optional(uuid()).register(globalRegistry, {
    description: 'The refunds of one payment request.',
  }),
  storeId: optional(uuid()).register(globalRegistry, {
    description: 'One store of the business; all of them by default.',
  }),
  page: _default(coerce.number().check(int(), gte(1)), 1),
  limit: _default(coerce.number().check(int(), gte(1), lte(100)), 100),
});

export const refundSchema = object({
  id: uuid(),
  paymentRequestId: uuid(),
  storeId: uuid(),
  amount: money,
  fees: money.clone().register(globalRegistry, {
    description: 'What the refund itself cost the store, beside `amount` (none by default).',
  }),
  status: enumOf(['pending', 'success', 'error']),
  errorReason: nullable(string()).register(globalRegistry, {
    description:
      'Why it ended in `error`: `declined`, `limit_exceeded`, `third_party_payment_provider_error`...',
  }),
  reference: string(),
  reason: nullable(string()),
  paymentMethod: enumOf(providerCodes).register(globalRegistry, {
    description: 'The provider that collected the payment, which pays it back.',
  }),
  counterpartIdentifier: string().register(globalRegistry, { description: 'The payer’s number, paid back.' }),
  createdAt: instant,
  updatedAt: instant,
}).register(globalRegistry, {
  id: 'Refund',
  examples: [
    {
      id: '9e8d7c6b-5a49-4382-a716-152433221100',
      paymentRequestId: '4130c5e2-8a4f-4d0b-b0f1-6f0f2e7b9a11',
      storeId: '4280b1d6-1f3c-4d53-9a7e-2f1c0c6a9b10',
      amount: { amount: 500_000, currency: 'XOF' },
      fees: { amount: 0, currency: 'XOF' },
      status: 'pending',
      errorReason: null,
      reference: 'retour-2042-1',
      reason: 'Article retourné',
      paymentMethod: 'wave',
      counterpartIdentifier: '+2250700000001',
      createdAt: '2026-11-21T09:12:38.114Z',
      updatedAt: '2026-11-21T09:12:38.114Z',
    },
  ],
});

export type RefundResponse = output<typeof refundSchema>;

export const refundListSchema = object(pageOf(refundSchema)).register(globalRegistry, { id: 'RefundList' });

/** The interface's Refund: the create answer, the GET answer and a list's item alike. */
export function refundResponse(refund: Refund): RefundResponse {
  return {
    id: refund.id,
    paymentRequestId: refund.paymentRequestId,
    storeId: refund.storeId,
    amount: { amount: refund.amountCents, currency: refund.currency },
    fees: { amount: refund.feeCents, currency: refund.currency },
    status: refund.status,
    errorReason: refund.errorReason,
    reference: refund.reference,
    reason: refund.reason ?? null,
    paymentMethod: refund.paymentMethod,
    counterpartIdentifier: refund.counterpartIdentifier,
    createdAt: refund.createdAt,
    updatedAt: refund.updatedAt,
  };
}

export const refundEndpoints = /* @__PURE__ */ endpointsIn('refunds', {
  createRefund: {
    // Sends the webhook of a refund the provider answers at once (or refuses) right away.
    method: 'POST',
    path: '/partner_api/refunds',
    caller: 'api_key',
    access: [
      // Query: whether the operator is down (shared/providers/operator-health.ts).
      'table:Query',
      'table:GetItem',
      'table:PutItem',
      'table:UpdateItem',
      'table:DeleteItem',
      ...paysOut,
    ],
    tag: 'Refunds',
    summary: 'Refund a paid payment request',
    status: 201,
    body: createRefundBody,
    response: refundSchema,
    responseDescription: 'The refund: `pending` until the provider answers, or already ended.',
    idempotent: true,
    errors: [
      'payment_request_not_found',
      'payment_request_not_refundable',
      'refund_exists_with_reference',
      'insufficient_balance',
      'third_party_payment_provider_error',
      // The operator is down for now: nothing written; Retry-After says when to try again.
      'provider_unavailable',
    ],
  },
  getRefund: {
    method: 'GET',
    path: '/partner_api/refunds/{id}',
    caller: 'api_key',
    access: ['table:GetItem', 'table:UpdateItem'],
    tag: 'Refunds',
    summary: 'Get a refund',
    params: refundPathParams,
    response: refundSchema,
    responseDescription: 'The refund as it is now.',
    errors: ['refund_not_found'],
  },
  listRefunds: {
    method: 'GET',
    path: '/partner_api/refunds',
    caller: 'api_key',
    access: ['table:GetItem', 'table:Query', 'table:BatchGetItem', 'table:UpdateItem'],
    tag: 'Refunds',
    summary: 'List refunds',
    query: listRefundsQuery,
    response: refundListSchema,
    responseDescription: 'One page of refunds, newest first.',
    errors: ['store_not_found', 'payment_request_not_found'],
  },
});
