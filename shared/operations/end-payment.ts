import { findPaymentRequest, type PaymentRequest } from '#shared/data/payment-request.ts';
import type { Caller } from '#shared/domain/caller.ts';
import { type CollectionFailure, hasEnded } from '#shared/domain/payment-lifetime.ts';
import { PaymentRequestNotCancellable } from '#shared/errors/payment-requests.ts';
import { Conflict } from '#shared/errors/request.ts';
import { destinationOf, hostedPaymentRequest } from '#shared/operations/hosted-payment.ts';
import { asSeenAt } from '#shared/operations/payment-request-view.ts';
import { paymentRequestOf } from '#shared/operations/payment-requests.ts';
import { announceEnd, endPaymentRequest, expireIfOver } from '#shared/settlement/payment-end.ts';

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
