/**
 * When a failed webhook delivery is tried again. The queue brings the message back once its
 * visibility timeout runs out, and the sender sets that timeout after each failed attempt:
 * exponential, `base × 5^(n−1)` after the n-th failure. With the production base of 60 s the
 * retries come 1 min, 5 min and 25 min after the failures before them, so the fourth and last
 * attempt is made about 31 minutes after the first: long enough to ride out a deploy or a short
 * outage of the receiver, short enough that a merchant sees the failure the same hour.
 */
export const retryFactor = 5;
export const defaultRetryBaseSeconds = 60;

/** SQS's longest visibility timeout. */
const maxVisibilitySeconds = 12 * 60 * 60;

/** Seconds to wait after the `failedAttempt`-th failure (1-based) before the next attempt. */
export function retryDelaySeconds(failedAttempt: number, baseSeconds: number): number {
  const delay = baseSeconds * retryFactor ** Math.max(0, failedAttempt - 1);
  return Math.min(maxVisibilitySeconds, Math.max(0, Math.round(delay)));
}

/** The base from WEBHOOK_RETRY_BASE_SECONDS (tests shorten it), or the production default. */
export function retryBaseSeconds(value = process.env.WEBHOOK_RETRY_BASE_SECONDS): number {
  const seconds = Number(value);
  return value !== undefined && value !== '' && Number.isFinite(seconds) && seconds >= 0
    ? seconds
    : defaultRetryBaseSeconds;
}
