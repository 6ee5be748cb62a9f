import { findPaymentRequest } from '#shared/data/payment-request.ts';
import { endsAt } from '#shared/domain/payment-lifetime.ts';
import { type ExpiryCheck, queueExpiryCheck } from '#shared/operations/expiry-checks.ts';
import { expireIfOver } from '#shared/settlement/payment-end.ts';

export type ExpiryCheckOutcome =
  /** Not due yet: sent on with the time left. */
  | 'not_due'
  /** Paid or ended meanwhile (or unknown): nothing to do. */
  | 'ended_already'
  /** A collection under way has its grace: looked at again when the grace ends. */
  | 'in_grace'
  /** Ended now, expired, with its webhook and its QR taken off. */
  | 'expired';

/**
 * The background expiry: at a request's expiry, an unpaid one is ended (`error` / `expired`),
 * its TRANSACTION_COMPLETED sent and a soundbox's QR taken off. Safe to run twice: the end is
 * conditional, and a second check finds the request ended.
 */
export async function checkExpiry(check: ExpiryCheck, now = new Date()): Promise<ExpiryCheckOutcome> {
  // One second early is due: SQS delays are whole seconds.
  if (Date.parse(check.checkAt) - now.getTime() > 1000) {
    await queueExpiryCheck(check, now.getTime());
    return 'not_due';
  }
  // Twice at most: an end that loses a race (a callback, another check) reads the request again.
  // The first read may be stale (half the price: most requests were paid long before), since the
  // end is conditional; the second is not.
  for (let attempt = 1; attempt <= 2; attempt++) {
    const request = await findPaymentRequest(check.paymentRequestId, attempt > 1);
    if (request?.status !== 'pending') return 'ended_already';
    if (await expireIfOver(request, now)) return 'expired';
    const end = endsAt(request);
    if (end > now.getTime()) {
      await queueExpiryCheck({ ...check, checkAt: new Date(end).toISOString() }, now.getTime());
      return 'in_grace';
    }
  }
  // Still over and not ended: looked at again, once the dust settles, by the queue's retry.
  throw new Error(`payment request ${check.paymentRequestId} is over but could not be ended yet`);
}
