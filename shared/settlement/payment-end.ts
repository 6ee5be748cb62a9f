import { getBusiness } from '#shared/data/business.ts';
import { endWrite, type PaymentRequest } from '#shared/data/payment-request.ts';
import { type CollectionFailure, type EndReason, hasEnded } from '#shared/domain/payment-lifetime.ts';
import { Conflict } from '#shared/errors/request.ts';
import { count } from '#shared/metrics.ts';
import { announceOnDevice } from '#shared/operations/device-push.ts';
import { endedTransaction } from '#shared/operations/payment-request-view.ts';
import { recordOutcome } from '#shared/settlement/payment-outcome.ts';

// An unpaid request's end, as settlement writes it. Kept apart from the merchant's cancel and the
// payer's leaving (shared/operations/end-payment.ts) so that a callback or a sweep ending a
// request does not bundle the hosted page and the provider routing those need.

/** The request could not be ended so: it ended otherwise, or a new collection started meanwhile. */
class NotEndable extends Conflict {
  constructor() {
    super('The payment request changed while it was being ended');
  }
}

export interface Ended {
  /** The request as this end left it; its TRANSACTION_COMPLETED (status `error`) leaves from the table's stream. */
  request: PaymentRequest;
}

/**
 * Ends an unpaid request, once: `expired` once over by time, the other reasons only while it is
 * not. Written as a failed payment is (its list record, an escrow cancelled, a single-use link
 * left open), with a TRANSACTION_COMPLETED of status `error`. Its collection, if one was started,
 * is superseded: a success the provider reports later is refunded to the payer. Undefined when the
 * request was no longer in a state to end so (the caller reads it again).
 */
export async function endPaymentRequest(
  request: PaymentRequest,
  reason: EndReason | CollectionFailure,
  now = new Date(),
): Promise<Ended | undefined> {
  const business = await getBusiness(request.businessId);
  if (!business) throw new Error(`business ${request.businessId} of payment request ${request.id} is gone`);
  // An expiry happened at `expiresAt`, whenever it is written; the rest happen now.
  const transaction = endedTransaction(request, reason === 'expired' ? new Date(request.expiresAt) : now);
  const changed = { providerReference: undefined, attemptError: undefined };
  try {
    await recordOutcome(request, business, {
      status: 'error',
      errorReason: reason,
      transaction,
      provider: request.collectionMethod ?? request.paymentMethod,
      requestWrite: endWrite(
        request,
        { errorReason: reason, transaction, endedAt: now },
        () => new NotEndable(),
      ),
      at: now,
    });
    count('PaymentRequestsEnded', { reason });
    const ended: PaymentRequest = {
      ...request,
      ...changed,
      status: 'error',
      errorReason: reason,
      transaction,
      updatedAt: now.toISOString(),
    };
    return { request: ended };
  } catch (error) {
    if (error instanceof NotEndable) return undefined;
    throw error;
  }
}

/** What follows an end at once: a soundbox's QR taken off its device (the webhook leaves from the stream). */
export async function announceEnd(ended: Ended | undefined): Promise<void> {
  if (ended) await announceOnDevice(ended.request);
}

/**
 * Ends the request if it is over by time and not written so yet (the background expiry, or a
 * callback or a page that finds it over), and announces it. Answers what it ended, or nothing.
 */
export async function expireIfOver(request: PaymentRequest, now = new Date()): Promise<Ended | undefined> {
  if (!hasEnded(request, now)) return undefined;
  const ended = await endPaymentRequest(request, 'expired', now);
  if (ended) await announceOnDevice(ended.request);
  return ended;
}
