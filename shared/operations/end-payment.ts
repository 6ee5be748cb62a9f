import { getBusiness } from '#shared/data/business.ts';
import { endWrite, findPaymentRequest, type PaymentRequest } from '#shared/data/payment-request.ts';
import type { Caller } from '#shared/domain/caller.ts';
import { type CollectionFailure, type EndReason, hasEnded } from '#shared/domain/payment-lifetime.ts';
import { PaymentRequestNotCancellable } from '#shared/errors/payment-requests.ts';
import { Conflict } from '#shared/errors/request.ts';
import { count } from '#shared/metrics.ts';
import { announceOnDevice } from '#shared/operations/device-push.ts';
import { destinationOf, hostedPaymentRequest } from '#shared/operations/hosted-payment.ts';
import { asSeenAt, endedTransaction } from '#shared/operations/payment-request-view.ts';
import { paymentRequestOf } from '#shared/operations/payment-requests.ts';
import { recordOutcome } from '#shared/settlement/payment-outcome.ts';

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

/**
 * Ends an open request for a reason other than time (the merchant cancels, the payer leaves),
 * reading it again when a collection or the clock changed it meanwhile. Answers the request as it
 * is afterwards, and whether it ended for this reason (now, or by an earlier call). A request over
 * by time is written expired on the way, so its webhook leaves with this answer.
 */
async function endOpenRequest(
  id: string,
  reason: 'cancelled' | 'abandoned' | CollectionFailure,
): Promise<{ request: PaymentRequest; endedSo: boolean } | undefined> {
  for (let attempt = 1; attempt <= 3; attempt++) {
    const request = await findPaymentRequest(id, true);
    if (!request) return undefined;
    const now = new Date();
    if (request.status !== 'pending' || hasEnded(request, now)) {
      const seen = (await expireIfOver(request, now))?.request ?? asSeenAt(request, now);
      return { request: seen, endedSo: seen.errorReason === reason };
    }
    const ended = await endPaymentRequest(request, reason, now);
    if (ended) {
      await announceEnd(ended);
      return { request: ended.request, endedSo: true };
    }
  }
  throw new Conflict('The payment request keeps changing: try again');
}

/**
 * The merchant cancels a pending request: `error` / `cancelled`. Cancelling it again answers the
 * same; a request that was paid or ended otherwise cannot be cancelled (409).
 */
export async function cancelPaymentRequestFor(caller: Caller, id: string): Promise<PaymentRequest> {
  // Through the caller's business and store: another's request is not found.
  const seen = await paymentRequestOf(caller, id);
  const result = await endOpenRequest(id, 'cancelled');
  if (!result?.endedSo) throw new PaymentRequestNotCancellable(result?.request.status ?? seen.status);
  return result.request;
}

/**
 * The payer leaves the hosted page through "back to the shop": `error` / `abandoned` if it was
 * still open, and the payer goes where its outcome says (the `errorUrl`, or the `successUrl` of a
 * request paid meanwhile).
 */
export async function leaveHostedPage(id: string): Promise<ReturnType<typeof destinationOf>> {
  const request = await hostedPaymentRequest(id, true);
  const left =
    request.status === 'pending' ? ((await endOpenRequest(id, 'abandoned'))?.request ?? request) : request;
  return destinationOf(left);
}

/**
 * The sandbox's payer declined (or could not pay) and leaves: a request the page would have kept
 * open for another attempt ends with that failure, as a sandbox test expects of a declined payment.
 */
export async function leaveAfterFailedAttempt(id: string): Promise<void> {
  const request = await findPaymentRequest(id, true);
  if (request?.status !== 'pending' || !request.attemptError) return;
  await endOpenRequest(id, request.attemptError as CollectionFailure);
}
