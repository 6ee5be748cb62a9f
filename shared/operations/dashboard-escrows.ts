import type { Escrow } from '#shared/data/escrow.ts';
import { paymentRequestsById } from '#shared/data/payment-requests-by-id.ts';
import type { Store } from '#shared/data/store.ts';
import { storeTimeZone } from '#shared/domain/country-time-zones.ts';
import { heldAmount } from '#shared/domain/escrows.ts';
import { recordAudit } from '#shared/operations/audit-log.ts';
import { type ActingMember, callerForMember } from '#shared/operations/dashboard-access.ts';
import { escrowOf, escrowsOf, refundEscrowFor, releaseEscrowFor } from '#shared/operations/escrows.ts';
import { storesOf } from '#shared/operations/stores.ts';

/**
 * The dashboard's escrows: the API's list, its release and its refund, called with the acting
 * member as a platform caller of the whole business (`callerForMember`), so a page and an API call
 * meet the same conditional transitions: whoever comes second (a double submit, the API, the
 * hold's expiry) gets the 409 of the state the first left, and the money moves once.
 */

/** At most this many escrows on the page, newest first; each costs its payment's read. */
export const escrowsShown = 100;

export interface ListedEscrow {
  escrow: Escrow;
  storeName: string;
  timeZone: string;
  /** What a release pays the store: the payment less the fee taken at collection. */
  held: number;
  /** The payment's line in the transaction list (`/dashboard/transactions/{id}`), once it completed. */
  transactionId: string | undefined;
}

const storeFacts = (stores: readonly Store[], storeId: string) => {
  const store = stores.find((candidate) => candidate.id === storeId);
  return { storeName: store?.name ?? storeId, timeZone: storeTimeZone(store ?? {}) };
};

/**
 * The escrows as `GET /partner_api/escrows` lists them, with their store and payment. Cost: the
 * escrows' query (gsi1, 0.5 RCU per 4 KB), the stores' query, and one BatchGetItem of the shown
 * escrows' payment requests (0.5 RCU each).
 */
export async function escrowsOverview(member: ActingMember) {
  const caller = callerForMember(member);
  const [all, stores] = await Promise.all([escrowsOf(caller, {}), storesOf(caller)]);
  const shown = all.slice(0, escrowsShown);
  const payments = await paymentRequestsById(
    member.businessId,
    shown.map((escrow) => escrow.paymentRequestId),
  );
  const escrows: ListedEscrow[] = shown.map((escrow) => ({
    escrow,
    ...storeFacts(stores, escrow.storeId),
    held: heldAmount(escrow),
    transactionId: payments.get(escrow.paymentRequestId)?.transaction?.id,
  }));
  return { escrows, total: all.length };
}

/** One escrow of the business, for a confirmation (404 for another business's). */
export async function escrowToConfirm(member: ActingMember, escrowId: string): Promise<ListedEscrow> {
  const caller = callerForMember(member);
  const [escrow, stores] = await Promise.all([escrowOf(caller, escrowId, true), storesOf(caller)]);
  return {
    escrow,
    ...storeFacts(stores, escrow.storeId),
    held: heldAmount(escrow),
    transactionId: undefined,
  };
}

/** Releases the escrow through the API's operation, then records who did it. */
export async function releaseEscrowOf(member: ActingMember, escrowId: string, sourceIp: string) {
  const released = await releaseEscrowFor(callerForMember(member), escrowId);
  await recordAudit(member, {
    action: 'escrow_released',
    subjectId: released.id,
    detail: `${heldAmount(released)} ${released.currency} to store ${released.storeId}`,
    sourceIp,
  });
  return released;
}

/**
 * Refunds the escrow to its payer through the API's operation (a payout of the whole payment; the
 * fee taken at collection is given back), then records who asked. A payout the provider refused
 * at once leaves the escrow held: recorded all the same, since the member did ask.
 */
export async function refundEscrowOf(member: ActingMember, escrowId: string, sourceIp: string) {
  const refunded = await refundEscrowFor(callerForMember(member), escrowId);
  await recordAudit(member, {
    action: 'escrow_refunded',
    subjectId: refunded.id,
    detail: `${refunded.amount} ${refunded.currency} to the payer${refunded.status === 'held' ? ' (refused by the provider)' : ''}`,
    sourceIp,
  });
  return refunded;
}
