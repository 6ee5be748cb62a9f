import { randomUUID } from 'node:crypto';
import { type Escrow, escrowCreateWrite } from '#shared/data/escrow.ts';
import type { GuardedWrite } from '#shared/data/transact.ts';
import type { Caller } from '#shared/domain/caller.ts';
import { type EscrowTerms, holdUntilOf, minHoldSeconds } from '#shared/domain/escrows.ts';
import { ForbiddenAction } from '#shared/errors/auth.ts';
import { ValidationFailed } from '#shared/errors/request.ts';

/**
 * An escrow's terms, what creating a payment request or a link needs of escrows: who may ask for
 * one, the terms checked, and the `pending` escrow written with the request. Ending a hold (release,
 * refund through a payout, expiry) is shared/operations/escrows.ts, which creating a payment does
 * not import.
 */

/** Only a platform key may put a payment in escrow (the interface reserves escrows to it). */
export function assertMayHoldInEscrow(caller: Caller): void {
  if (caller.keyKind !== 'platform') {
    throw new ForbiddenAction('Only a platform key may hold payments in escrow');
  }
}

/** The hold's terms, checked against the stage's limits now: a refused date names its field. */
export function checkedTerms(terms: EscrowTerms, now = new Date()): EscrowTerms {
  const hold = holdUntilOf(terms, now, minHoldSeconds());
  if ('refused' in hold) {
    throw new ValidationFailed([{ field: 'escrow.holdUntil', rule: 'between', message: hold.refused }]);
  }
  return terms;
}

/**
 * The escrow of a payment request being created, `pending`, and the write that puts it in the
 * request's creating transaction.
 */
export function pendingEscrow(input: {
  businessId: string;
  storeId: string;
  currency: string;
  amount: number;
  paymentRequestId: string;
  paymentLinkId?: string | undefined;
  terms: EscrowTerms;
  baseUrl: string;
}): { escrow: Escrow; write: GuardedWrite } {
  const now = new Date();
  const hold = holdUntilOf(input.terms, now, 0);
  // A link's fixed date may have come closer than the minimum since the link was made: the hold
  // then ends at its date, never before now.
  const holdUntil = 'holdUntil' in hold ? hold.holdUntil : now.toISOString();
  const escrow: Escrow = {
    id: randomUUID(),
    businessId: input.businessId,
    storeId: input.storeId,
    status: 'pending',
    holdUntil,
    amount: input.amount,
    fees: 0,
    currency: input.currency,
    onExpiry: input.terms.onExpiry,
    paymentRequestId: input.paymentRequestId,
    paymentLinkId: input.paymentLinkId ?? null,
    baseUrl: input.baseUrl,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
  };
  return { escrow, write: escrowCreateWrite(escrow) };
}
