import { array, enum as enumOf, int, iso, nullable, object, type output, uuid } from 'zod';
import type { Escrow } from '#shared/data/escrow.ts';
import { escrowStatuses, expiryActions, maxHoldDays } from '#shared/domain/escrows.ts';
import { instant, money } from '#shared/schemas/common.ts';
import type { RouteContracts } from '#shared/schemas/contract.ts';

/**
 * `escrow` of a payment request or link: `holdUntil` (a date-time) or `holdDays` (1..90), one of
 * them; `onExpiry` says what the hold's end does (release unless told).
 */
export const escrowTermsBody = object({
  holdUntil: iso.datetime({ offset: true }).optional().meta({
    description: 'When the hold ends: from the stage’s minimum (an hour by default) to 90 days ahead.',
  }),
  holdDays: int()
    .min(1)
    .max(maxHoldDays)
    .optional()
    .meta({ description: 'The hold in days from the payment’s creation, instead of `holdUntil`.' }),
  onExpiry: enumOf(expiryActions)
    .default('release')
    .meta({ description: 'What the hold’s end does: release to the store (default) or refund the payer.' }),
}).superRefine((terms, context) => {
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
});

export type EscrowTermsBody = ReturnType<typeof escrowTermsBody.parse>;

export const escrowPathParams = object({ id: uuid() });

export const listEscrowsQuery = object({
  status: enumOf(escrowStatuses).optional(),
  storeId: uuid().optional(),
});

const escrowStatus = enumOf(escrowStatuses).meta({
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
  amount: money.meta({ description: 'The payment’s amount.' }),
  fees: money.meta({ description: 'The fee taken when the payment was collected: 0 until then.' }),
  onExpiry: enumOf(expiryActions),
  paymentRequestId: uuid(),
  paymentLinkId: nullable(uuid()),
  createdAt: instant,
}).meta({
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

/** The body of ESCROW_HELD, ESCROW_RELEASED and ESCROW_REFUNDED (shared/operations/escrow-events.ts). */
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
}).meta({
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

export const escrowContracts = {
  listEscrows: {
    tag: 'Escrows',
    summary: 'List escrows',
    description:
      'The business’s escrows, newest first, filtered by `status` and `storeId`. A store-scoped platform ' +
      'key sees its store’s only. Platform keys only.',
    query: listEscrowsQuery,
    response: array(escrowSchema),
    responseDescription: 'The escrows, as a bare array.',
  },
  releaseEscrow: {
    tag: 'Escrows',
    summary: 'Release a held escrow to the store',
    description:
      'Moves what the escrow holds (the payment less its fee) to the store’s operating wallet, lists one ' +
      'transaction of type `escrow` and sends `ESCROW_RELEASED`. Only a `held` escrow: a second release ' +
      'answers 409 `escrow_already_released`, a pending or cancelled one 409 `escrow_not_held`. Platform keys only.',
    params: escrowPathParams,
    response: escrowSchema,
    responseDescription: 'The escrow, `released`.',
    errors: escrowTransitionErrors,
  },
  refundEscrow: {
    tag: 'Escrows',
    summary: 'Refund a held escrow to the payer',
    description:
      'Pays the whole payment (its fee included) back to the payer’s number through the provider’s ' +
      'payout, as a transfer: the escrow is `refunding` until the payout ends, then `refunded` ' +
      '(`ESCROW_REFUNDED`), or `held` again when the payout fails. Platform keys only.',
    params: escrowPathParams,
    response: escrowSchema,
    responseDescription: 'The escrow, `refunding` (or `held` when the provider refused the payout at once).',
    errors: [...escrowTransitionErrors, 'conflict', 'third_party_payment_provider_error'],
  },
} as const satisfies RouteContracts;
