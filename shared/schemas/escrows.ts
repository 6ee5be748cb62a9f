import { enum as enumOf, int, iso, object, uuid } from 'zod';
import type { Escrow } from '#shared/data/escrow.ts';
import { escrowStatuses, expiryActions, maxHoldDays } from '#shared/domain/escrows.ts';

/**
 * `escrow` of a payment request or link: `holdUntil` (a date-time) or `holdDays` (1..90), one of
 * them; `onExpiry` says what the hold's end does (release unless told).
 */
export const escrowTermsBody = object({
  holdUntil: iso.datetime({ offset: true }).optional(),
  holdDays: int().min(1).max(maxHoldDays).optional(),
  onExpiry: enumOf(expiryActions).default('release'),
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

/** The interface's Escrow. */
export function escrowResponse(escrow: Escrow) {
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
