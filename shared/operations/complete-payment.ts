import { randomUUID } from 'node:crypto';
import { getBusiness } from '#shared/data/business.ts';
import { collectWrite } from '#shared/data/collection-ceiling.ts';
import { escrowDueWrite, escrowTransitionWrite } from '#shared/data/escrow.ts';
import { ledgerWrites } from '#shared/data/ledger.ts';
import type { OutboxEvent } from '#shared/data/outbox.ts';
import { linkPaidWrite, releaseAttempt } from '#shared/data/payment-link.ts';
import {
  type CompletedTransaction,
  completionWrite,
  findPaymentRequest,
  type PaymentRequest,
} from '#shared/data/payment-request.ts';
import { type GuardedWrite, transactWrite } from '#shared/data/transact.ts';
import { transactionRecordWrites } from '#shared/data/transaction-record.ts';
import { collectionCeiling } from '#shared/domain/ceilings.ts';
import { executedAtFormat } from '#shared/domain/dates.ts';
import { feeScheduleFromEnvironment, splitFee } from '#shared/domain/fees.ts';
import { paymentPostings } from '#shared/domain/ledger.ts';
import { PaymentLinkIsInvalid } from '#shared/errors/payment-links.ts';
import {
  CollectionBecameCurrent,
  CollectionCeilingExceeded,
  PaymentAlreadyCompleted,
} from '#shared/errors/payment-requests.ts';
import { Conflict } from '#shared/errors/request.ts';
import { count } from '#shared/metrics.ts';
import { scheduleHoldEnd } from '#shared/operations/escrow-schedules.ts';
import { recordOrphanCollection } from '#shared/operations/orphan-collections.ts';
import { eventOfCompletedRequest } from '#shared/operations/payment-events.ts';
import type { VerifiedCallback } from '#shared/providers/port.ts';

export type CompletionResult =
  | 'completed'
  | 'already_completed'
  | 'unknown_request'
  | 'wrong_collection'
  /** A successful collection that completed nothing: recorded and refunded to the payer. */
  | 'orphan_collection';

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
 * from `pending` to `success` or `error` in one transaction with the ledger entry (store credited
 * amount − fee, fee account credited, provider clearing debited), the collection ceiling count,
 * the transaction-list record and the TRANSACTION_COMPLETED outbox event. A duplicate or late
 * callback finds the request no longer pending and changes nothing; two racing callbacks cannot
 * both pass the `pending` condition.
 *
 * What it writes (5 items, none shared with another business's payments; a business's stores
 * share only its ceiling month), 12 WCU by the capacity bench:
 * the request (2), the ceiling month (2), the store's wallet, carrying the store's shares of the
 * fee and clearing accounts (2), the list record carrying the journal entry (2 + 1 for the store
 * index), the store's day counter (2 + 1 for the business index). A payment held in escrow lands
 * in the store's escrow wallet instead (the same sharding) and adds the escrow's move to `held`
 * (2 + 1) and its due marker (2); its event is ESCROW_HELD, from the same stream change.
 */
export async function completePayment(callback: VerifiedCallback): Promise<Completion> {
  // Twice at most: a completion that loses a race with a new collection of the same request
  // looks again, and finds its collection superseded.
  for (let attempt = 1; ; attempt++) {
    const request = await findPaymentRequest(callback.paymentRequestId, true);
    if (!request) return { result: 'unknown_request', events: [] };
    try {
      if (request.providerReference !== callback.providerReference)
        return await otherCollection(request, callback);
      if (request.status !== 'pending') return { result: 'already_completed', events: [] };
      return await completeCurrent(request, callback);
    } catch (error) {
      if (!(error instanceof PaymentAlreadyCompleted || error instanceof CollectionBecameCurrent))
        throw error;
      if (attempt >= 2) return { result: 'already_completed', events: [] };
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

async function completeCurrent(request: PaymentRequest, callback: VerifiedCallback): Promise<Completion> {
  let events: OutboxEvent[];
  let status: 'success' | 'error' = 'error';
  if (callback.outcome === 'success') {
    try {
      events = await completeWith(request, callback, 'success', null);
      status = 'success';
    } catch (error) {
      // The provider collected, but the business may not receive more this month, or the
      // single-use link was paid by someone else first: the request fails and the provider
      // reverses the collection.
      if (error instanceof CollectionCeilingExceeded) {
        events = await completeWith(request, callback, 'error', 'collection_ceiling_exceeded');
      } else if (error instanceof PaymentLinkIsInvalid) {
        events = await completeWith(request, callback, 'error', 'E_PAYMENT_LINK_IS_INVALID');
      } else {
        throw error;
      }
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

async function completeWith(
  request: PaymentRequest,
  callback: VerifiedCallback,
  status: 'success' | 'error',
  errorReason: string | null,
): Promise<OutboxEvent[]> {
  const business = await getBusiness(request.businessId);
  if (!business) throw new Error(`business ${request.businessId} of payment request ${request.id} is gone`);
  const now = new Date();
  const createdAt = now.toISOString();
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
  const transactionDetails = {
    id: request.id,
    reference: request.reference,
    ...(request.paymentLinkId ? { paymentLinkId: request.paymentLinkId } : {}),
  };
  const writes: GuardedWrite[] = [
    completionWrite(
      request,
      { status, errorReason, transaction, payerPhone, completedAt: createdAt },
      () => new PaymentAlreadyCompleted(),
    ),
  ];
  if (status === 'success' && request.paymentLinkId) {
    writes.push(
      linkPaidWrite(
        request.businessId,
        request.paymentLinkId,
        request.id,
        request.paymentLinkSingleUse === true,
        request.escrow?.id,
      ),
    );
  }
  if (request.escrow && status === 'success') {
    writes.push(
      escrowTransitionWrite(
        request.escrow.id,
        'pending',
        'held',
        { fees: fee, payerPhone, provider },
        createdAt,
      ),
      escrowDueWrite(request.escrow.id, request.escrow.holdUntil),
    );
  } else if (request.escrow) {
    writes.push(escrowTransitionWrite(request.escrow.id, 'pending', 'cancelled', {}, createdAt));
  }
  const [record, ...counters] = transactionRecordWrites({
    id: transaction.id,
    businessId: request.businessId,
    storeId: request.storeId,
    type: 'payment',
    status,
    amount: transaction.amount,
    fees: transaction.fees,
    currency: request.currency,
    paymentMethod: provider,
    counterpartLabel: transaction.counterpartLabel,
    counterpartIdentifier: transaction.counterpartIdentifier,
    description: transaction.description,
    reference: request.reference,
    createdAt,
    transactionDetails,
    paymentRequestId: request.id,
    ...(request.escrow ? { escrowId: request.escrow.id } : {}),
  }) as [GuardedWrite, ...GuardedWrite[]];
  if (status === 'success') {
    writes.push(
      collectWrite(
        request.businessId,
        request.amountCents,
        collectionCeiling(business.verificationLevel),
        now,
      ),
    );
    // The entry rides in the transaction record: the request's `pending` condition already makes
    // the completion happen once, so it needs no item of its own.
    writes.push(
      ...ledgerWrites(
        {
          id: `payment:${request.id}`,
          kind: 'payment',
          cause: `payment request ${request.id}`,
          createdAt,
          postings: paymentPostings({
            businessId: request.businessId,
            storeId: request.storeId,
            provider,
            amount: request.amountCents,
            fee,
            wallet: request.escrow ? 'escrow' : 'operating',
          }),
        },
        { within: record },
      ),
    );
  } else {
    writes.push(record);
  }
  writes.push(...counters);
  await transactWrite(writes);
  if (request.escrow && status === 'success') await scheduleHoldEnd(request.escrow);
  // A failed attempt leaves its single-use link open for the next payer.
  if (status === 'error' && request.paymentLinkId && request.paymentLinkSingleUse) {
    await releaseAttempt(request.businessId, request.paymentLinkId, request.id);
  }
  return [
    eventOfCompletedRequest(
      { ...request, status, errorReason, transaction, payerPhone, updatedAt: createdAt },
      business.name,
    ),
  ];
}
