import { getBusiness } from '#shared/data/business.ts';
import { ledgerWrites } from '#shared/data/ledger.ts';
import { type OutboxEvent, outboxWrite } from '#shared/data/outbox.ts';
import {
  findRefund,
  pendingRefunds,
  type Refund,
  recordRefundStarted,
  refundOutcomeOnPaymentWrite,
  refundOutcomeWrites,
  refundReferenceReleaseWrite,
} from '#shared/data/refund.ts';
import { getStore } from '#shared/data/store.ts';
import { type GuardedWrite, transactWrite } from '#shared/data/transact.ts';
import { type TransactionRecord, transactionSettledWrites } from '#shared/data/transaction-record.ts';
import { releaseWrite } from '#shared/data/wallet.ts';
import { executedAtFormat } from '#shared/domain/dates.ts';
import { accounts, refundPostings } from '#shared/domain/ledger.ts';
import { InsufficientBalance } from '#shared/errors/ledger.ts';
import { ProviderRefused } from '#shared/errors/providers.ts';
import { RefundNoLongerPending } from '#shared/errors/refunds.ts';
import { logger } from '#shared/logger.ts';
import { count } from '#shared/metrics.ts';
import { dispatchPromptly } from '#shared/operations/webhook-dispatch.ts';
import type {
  CollectionRefundRequest,
  PayoutOutcome,
  PayoutStatus,
  VerifiedPayoutCallback,
} from '#shared/providers/port.ts';
import { providerFor } from '#shared/providers/routing.ts';

/**
 * A refund once recorded: asked of its provider, and ended by the provider's answer (at once, by
 * callback, or by the status query of the sweep), exactly once. What creating one checks is in
 * shared/operations/refunds.ts; this is what the payout callbacks and the sweep need of refunds.
 */

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
    description: refund.reason ?? `Refund of ${refund.paymentReference}`,
    reference: refund.reference,
    createdAt: refund.createdAt,
    transactionDetails: { id: refund.paymentRequestId, reference: refund.paymentReference },
    paymentRequestId: refund.paymentRequestId,
    refundId: refund.id,
  };
}

/**
 * REFUND_COMPLETED: the transaction body of the refund's line, `transactionType: "refund"`, whose
 * `transactionDetails` name the refunded payment (and the refund). Sent only to subscriptions that
 * list it (shared/domain/webhook-events.ts).
 */
export function refundCompletedEvent(
  refund: Refund,
  names: { business: string; store: string },
  status: 'success' | 'error',
  at: Date,
): OutboxEvent {
  const record = refundRecord(refund);
  return {
    id: `REFUND_COMPLETED:${refund.id}`,
    name: 'REFUND_COMPLETED',
    businessId: refund.businessId,
    createdAt: at.toISOString(),
    body: {
      id: refund.transactionId,
      amount: record.amount,
      fees: record.fees,
      status,
      counterpartLabel: refund.counterpartLabel,
      counterpartIdentifier: refund.counterpartIdentifier,
      paymentMethod: refund.paymentMethod,
      transactionType: 'refund',
      businessName: names.business,
      storeName: names.store,
      storeId: refund.storeId,
      description: record.description,
      executedAt: executedAtFormat(at),
      transactionDetails: {
        id: refund.paymentRequestId,
        reference: refund.paymentReference,
        refundId: refund.id,
        refundReference: refund.reference,
      },
    },
  };
}

/**
 * Ends a pending refund, exactly once: on success the ledger entry takes amount + fee out of the
 * operating wallet against its reservation (the provider is owed, or owes less, the amount; the
 * service keeps the fee) and the payment's `refundedCents` grows; on error the reservation goes
 * back to the available balance and the amount to what remains refundable of the payment. In the
 * same transaction: the refund's status, its list line (and on success its day's refunded total)
 * and the REFUND_COMPLETED outbox event. A
 * second outcome (a duplicate or late callback, the sweep racing one) finds the refund no longer
 * pending and changes nothing.
 */
export async function settleRefund(
  refund: Refund,
  status: 'success' | 'error',
  errorReason: string | null,
  options: { releaseReference?: boolean } = {},
): Promise<OutboxEvent[]> {
  const [business, store] = await Promise.all([
    getBusiness(refund.businessId),
    getStore(refund.businessId, refund.storeId),
  ]);
  if (!business || !store) throw new Error(`the store ${refund.storeId} of refund ${refund.id} is gone`);
  const now = new Date();
  const wallet = { businessId: refund.businessId, storeId: refund.storeId, kind: 'operating' as const };
  const writes: GuardedWrite[] = [
    ...refundOutcomeWrites(
      refund,
      { status, errorReason, updatedAt: now.toISOString() },
      () => new RefundNoLongerPending(),
    ),
    refundOutcomeOnPaymentWrite(refund, status),
  ];
  if (status === 'success') {
    writes.push(
      ...ledgerWrites(
        {
          id: `refund:${refund.id}`,
          kind: 'refund',
          cause: `refund ${refund.id} of payment request ${refund.paymentRequestId}`,
          createdAt: now.toISOString(),
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
  writes.push(...transactionSettledWrites(refundRecord(refund), status));
  const event = refundCompletedEvent(refund, { business: business.name, store: store.name }, status, now);
  writes.push(outboxWrite(event));
  if (options.releaseReference) writes.push(refundReferenceReleaseWrite(refund));
  try {
    await transactWrite(writes);
  } catch (error) {
    if (error instanceof RefundNoLongerPending) return [];
    throw error;
  }
  count('RefundsCompleted', { outcome: status, provider: refund.paymentMethod });
  return [event];
}

const outcomeStatus = (outcome: PayoutOutcome) =>
  outcome === 'success'
    ? { status: 'success' as const, errorReason: null }
    : { status: 'error' as const, errorReason: outcome };

export const collectionRefundRequestOf = (refund: Refund): CollectionRefundRequest => ({
  refundId: refund.id,
  provider: refund.paymentMethod,
  collectionReference: refund.collectionReference,
  amountCents: refund.amountCents,
  currency: refund.currency,
  payerNumber: refund.counterpartIdentifier,
  callbackUrl: refund.callbackUrl,
});

/**
 * Asks the provider that collected the payment to pay a recorded refund back: by its own refund of
 * the collection, or by a payout to the payer's number (the refund's `route`), idempotent on the
 * refund's id. A refusal ends the refund at once, its reservation and reference given back, and is
 * thrown; an answer already final ends it now; anything else leaves it pending for the sweep.
 */
export async function startRefund(refund: Refund): Promise<Refund> {
  const provider = providerFor(refund.paymentMethod);
  try {
    const started =
      refund.route === 'refund' && provider.refundCollection
        ? await provider.refundCollection(collectionRefundRequestOf(refund))
        : await provider.startPayout({
            transferId: refund.id,
            method: refund.paymentMethod,
            amountCents: refund.amountCents,
            currency: refund.currency,
            beneficiaryName: refund.counterpartLabel,
            beneficiaryNumber: refund.counterpartIdentifier,
            callbackUrl: refund.callbackUrl,
          });
    await recordRefundStarted(refund, started.providerReference);
    const asked = { ...refund, providerReference: started.providerReference };
    if (!started.outcome) return asked;
    const { status, errorReason } = outcomeStatus(started.outcome);
    const events = await settleRefund(asked, status, errorReason);
    await dispatchPromptly(events);
    return events.length > 0 ? { ...asked, status, errorReason } : asked;
  } catch (error) {
    if (error instanceof ProviderRefused) {
      // Refused before any money moved: the reservation goes back and the reference is free again.
      await dispatchPromptly(
        await settleRefund(refund, 'error', 'third_party_payment_provider_error', { releaseReference: true }),
      );
    }
    throw error;
  }
}

/** A payout callback that names a refund: it ends as the provider says, once. Undefined otherwise. */
export async function completeRefund(
  callback: VerifiedPayoutCallback,
): Promise<
  { result: 'completed' | 'already_completed' | 'wrong_payout'; events: OutboxEvent[] } | undefined
> {
  const refund = await findRefund(callback.transferId, true);
  if (!refund) return undefined;
  // The callback may outrun the recording of the provider's reference; once recorded, it must match.
  if (refund.providerReference && refund.providerReference !== callback.providerReference) {
    logger.warn('payout callback for another payout than the refund’s', {
      refundId: refund.id,
      providerReference: callback.providerReference,
    });
    return { result: 'wrong_payout', events: [] };
  }
  if (refund.status !== 'pending') return { result: 'already_completed', events: [] };
  const { status, errorReason } = outcomeStatus(callback.outcome);
  const events = await settleRefund(refund, status, errorReason);
  return { result: events.length > 0 ? 'completed' : 'already_completed', events };
}

/** A refund pending this long without an answer is asked about. */
export const refundStatusQueryAfterMs = 2 * 60_000;

export interface RefundSweepReport {
  found: number;
  completed: number;
  stillPending: number;
  failed: number;
}

async function statusOf(refund: Refund): Promise<PayoutStatus> {
  const provider = providerFor(refund.paymentMethod);
  return refund.route === 'refund' && provider.collectionRefundStatus
    ? provider.collectionRefundStatus(collectionRefundRequestOf(refund))
    : provider.payoutStatus(refund.id);
}

/**
 * Asks the provider about refunds still pending after `refundStatusQueryAfterMs` (their callback
 * lost, or never sent) and ends those it has an answer for. One the provider never received (the
 * function stopped between recording it and asking) is asked for again, which every provider
 * takes once per refund id. Run on the transfers' sweep schedule.
 */
export async function sweepPendingRefunds(now = new Date(), limit = 100): Promise<RefundSweepReport> {
  const refunds = await pendingRefunds(new Date(now.getTime() - refundStatusQueryAfterMs), limit);
  const report: RefundSweepReport = { found: refunds.length, completed: 0, stillPending: 0, failed: 0 };
  for (const refund of refunds) {
    try {
      const answer = await statusOf(refund);
      if (answer === 'pending') {
        report.stillPending++;
        continue;
      }
      if (answer === 'not_found') {
        const asked = await startRefund(refund);
        if (asked.status === 'pending') report.stillPending++;
        else report.completed++;
        continue;
      }
      const { status, errorReason } = outcomeStatus(answer);
      await dispatchPromptly(await settleRefund(refund, status, errorReason));
      report.completed++;
    } catch (error) {
      if (error instanceof ProviderRefused) {
        report.completed++;
        continue;
      }
      report.failed++;
      logger.error('pending refund not settled', { refundId: refund.id, error: error as Error });
    }
  }
  return report;
}
