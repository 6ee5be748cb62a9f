import {
  _default,
  array,
  enum as enumOf,
  globalRegistry,
  gte,
  int,
  iso,
  lte,
  nullable,
  object,
  optional,
  type output,
  superRefine,
  uuid,
} from 'zod/mini';
import { instant, money } from '#shared/api/common.ts';
import { endpointsIn } from '#shared/api/endpoint.ts';
import { paysOut, readsTable } from '#shared/catalogue/access.ts';
import type { Escrow } from '#shared/data/escrow.ts';
import { escrowStatuses, expiryActions, maxHoldDays } from '#shared/domain/escrows.ts';

/**
 * `escrow` of a payment request or link: `holdUntil` (a date-time) or `holdDays` (1..90), one of
 * them; `onExpiry` says what the hold's end does (release unless told).
 */
export const escrowTermsBody = object({
  holdUntil: optional(iso.datetime({ offset: true })).register(globalRegistry, {
    description: 'When the hold ends: from the stage’s minimum (an hour by default) to 90 days ahead.',
  }),
  holdDays: optional(int().check(gte(1), lte(maxHoldDays))).register(globalRegistry, {
    description: 'The hold in days from the payment’s creation, instead of `holdUntil`.',
  }),
  onExpiry: _default(enumOf(expiryActions), 'release').register(globalRegistry, {
    description: 'What the hold’s end does: release to the store (default) or refund the payer.',
  }),
}).check(
  superRefine((terms, context) => {
    const given = (terms.holdUntil !== undefined ? 1 : 0) + (terms.holdDays !== undefined ? 1 : 0);
    if (given === 1) return;
    context.addIssue({
      code: 'custom',
      path: ['holdUntil'],
      params: { rule: 'required' },
      message:
        given === 0
          ? 'The escrow.holdUntil field is required when escrow.holdDays is not present.'
          : 'Give either escrow.holdUntil or escrow.holdDays, not both.',
    });
  }),
);

export type EscrowTermsBody = ReturnType<typeof escrowTermsBody.parse>;

export const escrowPathParams = object({ id: uuid() });

export const listEscrowsQuery = object({
  status: optional(enumOf(escrowStatuses)),
  storeId: optional(uuid()),
});

const escrowStatus = enumOf(escrowStatuses).register(globalRegistry, {
  id: 'EscrowStatus',
  description:
    '`pending` until the payment completes; then `held`, or `cancelled` when it failed; `released` to the ' +
    'store, or `refunding` then `refunded` to the payer (a failed refund payout makes it `held` again).',
});

export const escrowSchema = object({
  id: uuid(),
  storeId: uuid(),
  status: escrowStatus,
  holdUntil: iso.datetime({ offset: true }),
  amount: money.clone().register(globalRegistry, { description: 'The payment’s amount.' }),
  fees: money
    .clone()
    .register(globalRegistry, { description: 'The fee taken when the payment was collected: 0 until then.' }),
  onExpiry: enumOf(expiryActions),
  paymentRequestId: uuid(),
  paymentLinkId: nullable(uuid()),
  createdAt: instant,
}).register(globalRegistry, {
  id: 'Escrow',
  examples: [
    {
      id: '5b0c3f7e-2d4a-4e8b-9c1f-3a6d8e0b2c4f',
      storeId: '4280b1d6-1f3c-4d53-9a7e-2f1c0c6a9b10',
      status: 'held',
      holdUntil: '2026-11-27T14:08:55.665Z',
      amount: { amount: 1_500_000, currency: 'XOF' },
      fees: { amount: 15_000, currency: 'XOF' },
      onExpiry: 'release',
      paymentRequestId: '4130c5e2-8a4f-4d0b-b0f1-6f0f2e7b9a11',
      paymentLinkId: null,
      createdAt: '2026-11-20T14:08:55.665Z',
    },
  ],
});

export type EscrowResponse = output<typeof escrowSchema>;

/** The interface's Escrow. */
export function escrowResponse(escrow: Escrow): EscrowResponse {
  return {
    id: escrow.id,
    storeId: escrow.storeId,
    status: escrow.status,
    holdUntil: escrow.holdUntil,
    amount: { amount: escrow.amount, currency: escrow.currency },
    fees: { amount: escrow.fees, currency: escrow.currency },
    onExpiry: escrow.onExpiry,
    paymentRequestId: escrow.paymentRequestId,
    paymentLinkId: escrow.paymentLinkId,
    createdAt: escrow.createdAt,
  };
}

/** The body of ESCROW_HELD, ESCROW_RELEASED and ESCROW_REFUNDED (shared/events/escrow-events.ts). */
export const escrowEventBody = object({
  event: enumOf(['ESCROW_HELD', 'ESCROW_RELEASED', 'ESCROW_REFUNDED']),
  escrowId: uuid(),
  status: escrowStatus,
  storeId: uuid(),
  amount: money,
  paymentRequestId: uuid(),
  paymentLinkId: nullable(uuid()),
  holdUntil: iso.datetime({ offset: true }),
  occurredAt: instant,
}).register(globalRegistry, {
  id: 'EscrowEvent',
  examples: [
    {
      event: 'ESCROW_HELD',
      escrowId: '5b0c3f7e-2d4a-4e8b-9c1f-3a6d8e0b2c4f',
      status: 'held',
      storeId: '4280b1d6-1f3c-4d53-9a7e-2f1c0c6a9b10',
      amount: { amount: 1_500_000, currency: 'XOF' },
      paymentRequestId: '4130c5e2-8a4f-4d0b-b0f1-6f0f2e7b9a11',
      paymentLinkId: null,
      holdUntil: '2026-11-27T14:08:55.665Z',
      occurredAt: '2026-11-20T14:08:55.665Z',
    },
  ],
});

export type EscrowEventBody = output<typeof escrowEventBody>;

const escrowTransitionErrors = [
  'escrow_not_found',
  'escrow_already_released',
  'escrow_already_refunded',
  'escrow_not_held',
] as const;

export const escrowEndpoints = /* @__PURE__ */ endpointsIn('escrows', {
  listEscrows: {
    method: 'GET',
    path: '/partner_api/escrows',
    caller: 'platform_key',
    access: [...readsTable, 'table:UpdateItem'],
    tag: 'Escrows',
    summary: 'List escrows',
    query: listEscrowsQuery,
    response: array(escrowSchema),
    responseDescription: 'The escrows, as a bare array.',
  },
  releaseEscrow: {
    // Sends ESCROW_RELEASED at once; the outbox sweeper is the fallback.
    method: 'POST',
    path: '/partner_api/escrows/{id}/release',
    caller: 'platform_key',
    access: ['table:GetItem', 'table:PutItem', 'table:UpdateItem', 'schedule:escrowExpiry'],
    tag: 'Escrows',
    summary: 'Release a held escrow to the store',
    params: escrowPathParams,
    response: escrowSchema,
    responseDescription: 'The escrow, `released`.',
    errors: escrowTransitionErrors,
  },
  refundEscrow: {
    // Beyond the interface: pays a held escrow back to the payer through the provider's payout.
    method: 'POST',
    path: '/partner_api/escrows/{id}/refund',
    caller: 'platform_key',
    access: ['table:GetItem', 'table:PutItem', 'table:UpdateItem', 'table:DeleteItem', ...paysOut],
    tag: 'Escrows',
    summary: 'Refund a held escrow to the payer',
    params: escrowPathParams,
    response: escrowSchema,
    responseDescription: 'The escrow, `refunding` (or `held` when the provider refused the payout at once).',
    errors: [...escrowTransitionErrors, 'conflict', 'third_party_payment_provider_error'],
  },
});
