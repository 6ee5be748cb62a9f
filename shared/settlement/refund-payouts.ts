import { ledgerWrites } from '#shared/data/ledger.ts';
import { payoutSettledWrite } from '#shared/data/payout.ts';
import {
  findRefund,
  type Refund,
  recordRefundStarted,
  refundOutcomeOnPaymentWrite,
  refundOutcomeWrite,
  refundReferenceReleaseWrite,
} from '#shared/data/refund.ts';
import { type GuardedWrite, transactWrite } from '#shared/data/transact.ts';
import { type TransactionRecord, transactionSettledWrites } from '#shared/data/transaction-record.ts';
import { releaseWrite } from '#shared/data/wallet.ts';
import { accounts, refundPostings } from '#shared/domain/ledger.ts';
import { InsufficientBalance } from '#shared/errors/ledger.ts';
import { RefundNoLongerPending } from '#shared/errors/refunds.ts';
import { refundDescription } from '#shared/events/payout-events.ts';
import { count } from '#shared/metrics.ts';
import type { CollectionRefundRequest } from '#shared/providers/port.ts';
import { providerFor } from '#shared/providers/routing.ts';
import { askPayout, type PayoutEnd, type PayoutSettler } from '#shared/settlement/payout-settler.ts';

/** The transaction-list line of a refund, written pending with it and settled with it. */
export function refundRecord(refund: Refund): TransactionRecord {
  return {
    id: refund.transactionId,
    businessId: refund.businessId,
    storeId: refund.storeId,
    type: 'refund',
    status: refund.status,
    amount: { amount: refund.amountCents, currency: refund.currency },
    fees: { amount: refund.feeCents, currency: refund.currency },
    currency: refund.currency,
    paymentMethod: refund.paymentMethod,
    counterpartLabel: refund.counterpartLabel,
    counterpartIdentifier: refund.counterpartIdentifier,
    description: refundDescription(refund),
    reference: refund.reference,
    createdAt: refund.createdAt,
    transactionDetails: { id: refund.paymentRequestId, reference: refund.paymentReference },
    paymentRequestId: refund.paymentRequestId,
    refundId: refund.id,
  };
}

/**
 * Ends a pending refund, exactly once: on success the ledger entry takes amount + fee out of the
 * operating wallet against its reservation (the provider is owed, or owes less, the amount; the
 * service keeps the fee) and the payment's `refundedCents` grows; on error the reservation goes
 * back to the available balance and the amount to what remains refundable of the payment. In the
 * same transaction: the refund's status, its list line (and on success its day's refunded total)
 * and the payout leaving the sweep's index. Its REFUND_COMPLETED leaves from the table's stream.
 */
async function settleRefund(
  refund: Refund,
  end: PayoutEnd,
  options: { releaseReference?: boolean } = {},
): Promise<boolean> {
  const now = new Date().toISOString();
  const wallet = { businessId: refund.businessId, storeId: refund.storeId, kind: 'operating' as const };
  const writes: GuardedWrite[] = [
    refundOutcomeWrite(refund, { ...end, updatedAt: now }, () => new RefundNoLongerPending()),
    payoutSettledWrite(refund.id, now),
    refundOutcomeOnPaymentWrite(refund, end.status),
  ];
  if (end.status === 'success') {
    writes.push(
      ...ledgerWrites(
        {
          id: `refund:${refund.id}`,
          kind: 'refund',
          cause: `refund ${refund.id} of payment request ${refund.paymentRequestId}`,
          createdAt: now,
          postings: refundPostings({
            businessId: refund.businessId,
            storeId: refund.storeId,
            provider: refund.paymentMethod,
            route: refund.route,
            amount: refund.amountCents,
            fee: refund.feeCents,
          }),
        },
        { settlesReservationOn: accounts.wallet(wallet.businessId, wallet.storeId, wallet.kind) },
      ),
    );
  } else {
    writes.push(releaseWrite(wallet, refund.reservation.amount, () => new InsufficientBalance()));
  }
  writes.push(...transactionSettledWrites(refundRecord(refund), end.status));
  if (options.releaseReference) writes.push(refundReferenceReleaseWrite(refund));
  try {
    await transactWrite(writes);
  } catch (error) {
    if (error instanceof RefundNoLongerPending) return false;
    throw error;
  }
  count('RefundsCompleted', { outcome: end.status, provider: refund.paymentMethod });
  return true;
}

export const collectionRefundRequestOf = (refund: Refund): CollectionRefundRequest => ({
  refundId: refund.id,
  provider: refund.paymentMethod,
  collectionReference: refund.collectionReference,
  amountCents: refund.amountCents,
  currency: refund.currency,
  payerNumber: refund.counterpartIdentifier,
  callbackUrl: refund.callbackUrl,
});

/** Whether the provider pays this refund back by its own refund of the collection. */
const byOwnRefund = (refund: Refund) => {
  const provider = providerFor(refund.paymentMethod, { phone: refund.counterpartIdentifier });
  return refund.route === 'refund' && provider.refundCollection !== undefined ? provider : undefined;
};

/**
 * A paid payment given back: by the provider's own refund of the collection, or by a payout to the
 * payer's number (the refund's `route`), idempotent on the refund's id.
 */
export const refundPayouts: PayoutSettler<Refund> = {
  kind: 'refund',
  load: (payout) => findRefund(payout.id, true),
  awaiting: (refund) => refund.status === 'pending',
  providerReference: (refund) => refund.providerReference,
  settle: settleRefund,
  ask(refund) {
    const own = byOwnRefund(refund);
    if (own?.refundCollection) return own.refundCollection(collectionRefundRequestOf(refund));
    return providerFor(refund.paymentMethod, { phone: refund.counterpartIdentifier }).startPayout({
      transferId: refund.id,
      method: refund.paymentMethod,
      amountCents: refund.amountCents,
      currency: refund.currency,
      beneficiaryName: refund.counterpartLabel,
      beneficiaryNumber: refund.counterpartIdentifier,
      callbackUrl: refund.callbackUrl,
    });
  },
  recordAsked: recordRefundStarted,
  status(refund) {
    const own = byOwnRefund(refund);
    return own?.collectionRefundStatus
      ? own.collectionRefundStatus(collectionRefundRequestOf(refund))
      : providerFor(refund.paymentMethod, { phone: refund.counterpartIdentifier }).payoutStatus(refund.id);
  },
};

/**
 * Asks the provider that collected the payment to pay a recorded refund back, and answers the
 * refund as that left it; a refusal ends it at once (its reservation and reference given back) and
 * is thrown.
 */
export async function startRefund(refund: Refund): Promise<Refund> {
  const { providerReference, end } = await askPayout(refundPayouts, refund);
  return { ...refund, providerReference, ...(end ?? {}) };
}
