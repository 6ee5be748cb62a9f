import { randomUUID } from 'node:crypto';
import { getBusiness } from '#shared/data/business.ts';
import { releaseAttempt } from '#shared/data/payment-link.ts';
import {
  type CompletedTransaction,
  completionWrite,
  findPaymentRequest,
  type PaymentRequest,
  recordFailedAttempt,
} from '#shared/data/payment-request.ts';
import { judgeCollectionReport } from '#shared/domain/collection-report.ts';
import { executedAtFormat } from '#shared/domain/dates.ts';
import { feeScheduleFromEnvironment, splitFee } from '#shared/domain/fees.ts';
import { PaymentLinkIsInvalid } from '#shared/errors/payment-links.ts';
import {
  CollectionBecameCurrent,
  CollectionCeilingExceeded,
  PaymentAlreadyCompleted,
} from '#shared/errors/payment-requests.ts';
import { Conflict } from '#shared/errors/request.ts';
import { count } from '#shared/metrics.ts';
import { scheduleHoldEnd } from '#shared/operations/escrow-schedules.ts';
import type { VerifiedCallback } from '#shared/providers/port.ts';
import { recordOrphanCollection } from '#shared/settlement/orphan-refunds.ts';
import { expireIfOver } from '#shared/settlement/payment-end.ts';
import { recordOutcome } from '#shared/settlement/payment-outcome.ts';

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
  /** The request as this completion left it (`completed` only), for its device to be told. */
  completed?: PaymentRequest;
}

const feeSchedule = feeScheduleFromEnvironment();

/**
 * The one way a collection settles: a provider's report of it (a verified callback, or the answer to
 * the sweep's status query) ends the payment request it names, exactly once, as
 * `judgeCollectionReport` reads it. The request moves from `pending` to `success` or `error` in one
 * transaction with what the outcome records (`recordOutcome`); a duplicate or late report finds it
 * no longer pending; two racing reports cannot both pass the `pending` condition. A request over by
 * time is ended first (expired): the success of its collection then is the payer's money, refunded
 * as an orphan. The request's event leaves from the table's stream.
 */
export async function completePayment(callback: VerifiedCallback): Promise<Completion> {
  // Three times at most: a report that loses a race with a new collection of the same request, or
  // with its end, reads it again and finds its collection superseded.
  for (let attempt = 1; ; attempt++) {
    try {
      return await settleReport(callback);
    } catch (error) {
      const raced = error instanceof PaymentAlreadyCompleted || error instanceof CollectionBecameCurrent;
      if (!raced) throw error;
      if (attempt >= 3) return { result: 'already_completed' };
    }
  }
}

async function settleReport(callback: VerifiedCallback): Promise<Completion> {
  const found = await findPaymentRequest(callback.paymentRequestId, true);
  if (!found) return { result: 'unknown_request' };
  // Over by time, not written so yet: ended now, so that the report finds it ended.
  const request = (await expireIfOver(found))?.request ?? found;
  switch (judgeCollectionReport(request, callback)) {
    case 'pay':
      return pay(request, callback);
    case 'fail':
      return complete(request, callback, 'error', callback.outcome);
    case 'attempt_failed':
      return failedAttempt(request, callback);
    case 'orphan': {
      const refused = request.providerReference === callback.providerReference;
      const recorded = await recordOrphanCollection(request, callback, refused ? 'refused' : 'superseded');
      // The refused money's first report records it; the superseded one's are each an orphan's.
      return { result: recorded || !refused ? 'orphan_collection' : 'already_completed' };
    }
    case 'not_recorded_yet':
      throw new Conflict('This collection is not recorded yet: send the callback again');
    case 'other_failed':
      return { result: 'wrong_collection' };
    case 'already_completed':
      return { result: 'already_completed' };
  }
}

/**
 * The provider collected. The business may not receive more this month, or the single-use link was
 * paid by someone else first: then the request fails, and the report is read again, which finds the
 * money refused, the payer's, to refund as an orphan collection (once, however often it is read).
 */
async function pay(request: PaymentRequest, callback: VerifiedCallback): Promise<Completion> {
  try {
    return await complete(request, callback, 'success', null);
  } catch (error) {
    const reason =
      error instanceof CollectionCeilingExceeded
        ? 'collection_ceiling_exceeded'
        : error instanceof PaymentLinkIsInvalid
          ? 'E_PAYMENT_LINK_IS_INVALID'
          : undefined;
    if (!reason) throw error;
    const ended = await complete(request, callback, 'error', reason);
    await settleReport(callback);
    return ended;
  }
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
  return { result: 'attempt_failed' };
}

async function complete(
  request: PaymentRequest,
  callback: VerifiedCallback,
  status: 'success' | 'error',
  errorReason: string | null,
): Promise<Completion> {
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
  await recordOutcome(request, business, {
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
  count('PaymentsCompleted', { outcome: status, provider });
  return { result: 'completed', completed: { ...request, status } };
}
