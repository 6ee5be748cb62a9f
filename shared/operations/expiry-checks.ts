import { sendToQueue } from '#shared/aws/sqs.ts';

/**
 * The check of a payment request at its expiry: a message on the `paymentExpiry` queue, hidden
 * until the check is due. SQS hides a message 15 minutes at most, so a later check is carried
 * there by a chain of messages, each sent again, unread, with the time left (a 30-minute request
 * takes two hops; the longest, 7 days, 672). Only the last hop reads the request.
 *
 * Why a queue and not an index of pending requests by expiry: an index entry is a write at the
 * creation and another at the completion of every payment, paid ones included; this costs a paid
 * payment no write at all (see docs/architecture/decisions.md).
 */
export interface ExpiryCheck {
  paymentRequestId: string;
  /** When to look at it (ISO 8601): its `expiresAt`, or the end of a collection's grace. */
  checkAt: string;
}

/** SQS's longest delay. */
const maxDelaySeconds = 900;

/** Sends the check, hidden until `checkAt` or for SQS's longest delay, whichever is sooner. */
export async function queueExpiryCheck(check: ExpiryCheck, now = Date.now()): Promise<void> {
  const seconds = Math.ceil((Date.parse(check.checkAt) - now) / 1000);
  await sendToQueue('paymentExpiry', check, {
    delaySeconds: Math.min(maxDelaySeconds, Math.max(0, seconds)),
  });
}
