import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Webhook signatures (`Svc-Signature`): the lowercase hex HMAC-SHA256 of the exact bytes of the
 * body, keyed with the subscription's secret as given. The sender signs with `signWebhookBody`;
 * receivers check with `verifyWebhookSignature` on the raw body, before parsing it: a body parsed
 * and encoded again need not have the same bytes.
 *
 * Exported for receivers as `partner-payments-service/webhooks`; it uses node:crypto only.
 */

const signaturePattern = /^[0-9a-f]{64}$/;

export function signWebhookBody(rawBody: string | Buffer, secret: string): string {
  return createHmac('sha256', secret).update(rawBody).digest('hex');
}

/**
 * True when `signatureHeader` is the body's signature. A missing header, or one that is not 64
 * lowercase hex digits, is false without computing anything; otherwise the comparison takes the
 * same time wherever the first differing digit is.
 */
export function verifyWebhookSignature(
  rawBody: string | Buffer,
  signatureHeader: string | undefined,
  secret: string,
): boolean {
  if (typeof signatureHeader !== 'string') return false;
  if (!signaturePattern.test(signatureHeader)) return false;
  const expected = Buffer.from(signWebhookBody(rawBody, secret), 'hex');
  return timingSafeEqual(expected, Buffer.from(signatureHeader, 'hex'));
}
