import { randomUUID } from 'node:crypto';
import { getBusiness } from '#shared/data/business.ts';
import type { OutboxEvent } from '#shared/data/outbox.ts';
import { releaseAttempt } from '#shared/data/payment-link.ts';
import {
  type CompletedTransaction,
  completionWrite,
  findPaymentRequest,
  type PaymentRequest,
  recordFailedAttempt,
} from '#shared/data/payment-request.ts';
import { executedAtFormat } from '#shared/domain/dates.ts';
import { feeScheduleFromEnvironment, splitFee } from '#shared/domain/fees.ts';
import { payerMayRetry } from '#shared/domain/payment-lifetime.ts';
import { PaymentLinkIsInvalid } from '#shared/errors/payment-links.ts';
import {
  CollectionBecameCurrent,
  CollectionCeilingExceeded,
  PaymentAlreadyCompleted,
} from '#shared/errors/payment-requests.ts';
import { Conflict } from '#shared/errors/request.ts';
import { count } from '#shared/metrics.ts';
import { expireIfOver } from '#shared/operations/end-payment.ts';
import { scheduleHoldEnd } from '#shared/operations/escrow-schedules.ts';
import { recordOrphanCollection } from '#shared/operations/orphan-collections.ts';
import { recordOutcome } from '#shared/operations/payment-outcome.ts';
import type { VerifiedCallback } from '#shared/providers/port.ts';

export type CompletionResult =
  | 'completed'
  | 'already_completed'
  | 'unknown_request'
  | 'wrong_collection'
  /** A successful collection that completed nothing: recorded and refunded to the payer. */
  | 'orphan_collection'
  /** A collection failed on the hosted page: the request stays pending for the payer to try again. */
  | 'attempt_failed';

export interface Completion {
  result: CompletionResult;
  /**
   * The event the completion announces, for the caller to dispatch at once. It is not written
   * anywhere: the request's change on the table's stream is the outbox (`eventOfCompletedRequest`).
   */
  events: OutboxEvent[];
  /** The request as this completion left it (`completed` only), for its device to be told. */
  completed?: PaymentRequest;
}

const feeSchedule = feeScheduleFromEnvironment();

/**
 * Completes a payment request from a verified provider callback, exactly once: the request moves
 * from `pending` to `success` or `error` in one transaction with what the outcome records
 * (`recordOutcome`: the ledger entry, the ceiling count, the transaction-list record). A duplicate
 * or late callback finds the request no longer pending and changes nothing; two racing callbacks
 * cannot both pass the `pending` condition. A failure of a collection the payer started on the
 * hosted page leaves the request pending for another attempt. A request over by time is ended
 * first (expired): the success of its collection then is the payer's money, refunded as an orphan.
 */
export async function completePayment(callback: VerifiedCallback): Promise<Completion> {
  // Three times at most: a completion that loses a race with a new collection of the same request,
  // or with its end, looks again and finds its collection superseded.
  for (let attempt = 1; ; attempt++) {
    const found = await findPaymentRequest(callback.paymentRequestId, true);
    if (!found) return { result: 'unknown_request', events: [] };
    try {
      // Over by time, not written so yet: ended now (and announced), so that the callback finds it ended.
      const request = (await expireIfOver(found))?.request ?? found;
      if (request.providerReference !== callback.providerReference)
        return await otherCollection(request, callback);
      if (request.status !== 'pending') return await endedRequest(request, callback);
      return await completeCurrent(request, callback);
    } catch (error) {
      if (!(error instanceof PaymentAlreadyCompleted || error instanceof CollectionBecameCurrent))
        throw error;
      if (attempt >= 3) return { result: 'already_completed', events: [] };
    }
  }
}

/**
 * A callback for another collection than the request's current one. One that succeeded is money
 * the payer paid twice (a collection superseded by another, or one started as the request
 * completed): it is recorded and refunded, once. One that failed moved nothing. One the request
 * never heard of, while it is pending, is a callback that outran the recording of its start: the
 * provider is asked to send it again (409), by which time it is known.
 */
async function otherCollection(request: PaymentRequest, callback: VerifiedCallback): Promise<Completion> {
  const known =
    request.status !== 'pending' ||
    (request.supersededCollections ?? []).includes(callback.providerReference);
  if (callback.outcome !== 'success') return { result: 'wrong_collection', events: [] };
  if (!known) throw new Conflict('This collection is not recorded yet: send the callback again');
  const { events } = await recordOrphanCollection(request, callback);
  return { result: 'orphan_collection', events };
}

/** The reasons a request ends `error` though its provider collected: the service refused the money. */
const refusedMoney = ['collection_ceiling_exceeded', 'E_PAYMENT_LINK_IS_INVALID'];

/**
 * A report of the request's own collection after it ended. Nothing to do, unless the service
 * refused the money it brought: then the payer's refund is recorded if an earlier report stopped
 * before recording it (recorded once, whatever the number of reports).
 */
async function endedRequest(request: PaymentRequest, callback: VerifiedCallback): Promise<Completion> {
  if (
    request.status !== 'error' ||
    callback.outcome !== 'success' ||
    !refusedMoney.includes(request.errorReason ?? '')
  ) {
    return { result: 'already_completed', events: [] };
  }
  const { recorded, events } = await recordOrphanCollection(request, callback, 'refused');
  return { result: recorded ? 'orphan_collection' : 'already_completed', events };
}

async function completeCurrent(request: PaymentRequest, callback: VerifiedCallback): Promise<Completion> {
  if (callback.outcome !== 'success' && payerMayRetry(request)) return failedAttempt(request, callback);
  let events: OutboxEvent[];
  let status: 'success' | 'error' = 'error';
  if (callback.outcome === 'success') {
    try {
      events = await completeWith(request, callback, 'success', null);
      status = 'success';
    } catch (error) {
      // The provider collected, but the business may not receive more this month, or the
      // single-use link was paid by someone else first: the request fails, and the money is the
      // payer's, paid back as an orphan collection (a report of it again records nothing twice).
      const reason =
        error instanceof CollectionCeilingExceeded
          ? 'collection_ceiling_exceeded'
          : error instanceof PaymentLinkIsInvalid
            ? 'E_PAYMENT_LINK_IS_INVALID'
            : undefined;
      if (!reason) throw error;
      events = await completeWith(request, callback, 'error', reason);
      const ended = { ...request, status: 'error' as const, errorReason: reason };
      events = [...events, ...(await recordOrphanCollection(ended, callback, 'refused')).events];
    }
  } else {
    events = await completeWith(request, callback, 'error', callback.outcome);
  }
  count('PaymentsCompleted', {
    outcome: status,
    provider: request.collectionMethod ?? request.paymentMethod,
  });
  return { result: 'completed', events, completed: { ...request, status } };
}

/**
 * The payer's collection failed on the hosted page: the request stays pending, saying why, and the
 * payer tries another provider or number on the same request. No webhook: the request has not
 * ended. A single-use link is left open meanwhile, as after any failed attempt.
 */
async function failedAttempt(request: PaymentRequest, callback: VerifiedCallback): Promise<Completion> {
  const recorded = await recordFailedAttempt(request, {
    providerReference: callback.providerReference,
    reason: callback.outcome,
    payerPhone: callback.payerPhone,
  });
  if (!recorded) throw new PaymentAlreadyCompleted();
  if (request.paymentLinkId && request.paymentLinkSingleUse)
    await releaseAttempt(request.businessId, request.paymentLinkId, request.id);
  count('PaymentAttemptsFailed', {
    outcome: callback.outcome,
    provider: request.collectionMethod ?? request.paymentMethod,
  });
  return { result: 'attempt_failed', events: [] };
}

async function completeWith(
  request: PaymentRequest,
  callback: VerifiedCallback,
  status: 'success' | 'error',
  errorReason: string | null,
): Promise<OutboxEvent[]> {
  const business = await getBusiness(request.businessId);
  if (!business) throw new Error(`business ${request.businessId} of payment request ${request.id} is gone`);
  const now = new Date();
  const provider = request.collectionMethod ?? request.paymentMethod;
  // A failed payment moved no money: no fee, no ledger entry.
  const fee = status === 'success' ? splitFee(request.amountCents, feeSchedule[provider]).fee : 0;
  const payerPhone = callback.payerPhone ?? request.payerPhone;
  const transaction: CompletedTransaction = {
    id: randomUUID(),
    amount: { amount: request.amountCents, currency: request.currency },
    fees: { amount: fee, currency: request.currency },
    status,
    counterpartLabel: callback.payerName ?? payerPhone ?? 'Client',
    counterpartIdentifier: payerPhone ?? request.deviceId ?? '',
    description: request.description ?? `Payment ${request.reference}`,
    executedAt: executedAtFormat(now),
  };
  const events = await recordOutcome(request, business, {
    status,
    errorReason,
    transaction,
    payerPhone,
    provider,
    requestWrite: completionWrite(
      request,
      { status, errorReason, transaction, payerPhone, completedAt: now.toISOString() },
      () => new PaymentAlreadyCompleted(),
    ),
    at: now,
  });
  if (request.escrow && status === 'success') await scheduleHoldEnd(request.escrow);
  return events;
}
