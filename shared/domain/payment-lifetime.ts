/**
 * How long a payment request may be paid, and when an unpaid one has ended. A request is open until
 * its `expiresAt`; a collection under way at the provider at that moment (the payer sent to the
 * provider's page, prompted on their phone, or shown a QR, with no answer yet) is given a grace for
 * the provider's answer. Past that end the request is `error` / `expired` in every answer, whether
 * or not the background expiry has written it yet: readers apply `hasEnded`, and every write that
 * could still change an open request carries the same rule as a condition
 * (shared/data/payment-request.ts), so no answer and no write disagrees with another.
 */

/** The lifetime of a request created without `expiresAt`. */
export const defaultLifetimeMs = 30 * 60_000;
/** The longest lifetime a request may ask for. */
export const maxLifetimeMs = 7 * 86_400_000;

/** Why an unpaid request ended without a provider's answer. */
export const endReasons = ['expired', 'cancelled', 'abandoned'] as const;
export type EndReason = (typeof endReasons)[number];

/** How a provider's collection may fail (its callback's outcome other than success). */
export type CollectionFailure = 'declined' | 'insufficient_funds';

/**
 * A request paid on the hosted page (redirect mode, payment links) survives a failed collection:
 * the payer may try another provider or number. Direct mode and soundbox QR keep one attempt, as
 * integrations expect.
 */
export const payerMayRetry = (request: { type: string; forceProviderDirect: boolean }): boolean =>
  request.type === 'redirect' && !request.forceProviderDirect;

const positiveSeconds = (value: string | undefined, fallback: number) => {
  const number = Number(value);
  return Number.isSafeInteger(number) && number > 0 ? number : fallback;
};

/**
 * The shortest lifetime a stage allows, in seconds: a minute unless the stage says otherwise (the
 * local host's tests see requests expire in seconds).
 */
export const minLifetimeSeconds = (environment: NodeJS.ProcessEnv = process.env): number =>
  positiveSeconds(environment.PAYMENT_REQUEST_MIN_LIFETIME_SECONDS, 60);

/**
 * How long a collection under way at `expiresAt` may still be answered: two minutes, the time a
 * payer who approved at the last second takes to reach the provider's callback. Tests shorten it.
 */
export const collectionGraceMs = (environment: NodeJS.ProcessEnv = process.env): number =>
  positiveSeconds(environment.PAYMENT_COLLECTION_GRACE_SECONDS, 120) * 1000;

/** When a request created now ends, or why the `expiresAt` asked for cannot be. */
export function expiresAtOf(
  asked: string | undefined,
  now: Date,
  minSeconds: number,
): { expiresAt: string } | { refused: string } {
  if (asked === undefined) return { expiresAt: new Date(now.getTime() + defaultLifetimeMs).toISOString() };
  const at = Date.parse(asked);
  if (Number.isNaN(at)) return { refused: 'The expiresAt field must be an ISO 8601 date-time.' };
  if (at < now.getTime() + minSeconds * 1000)
    return { refused: `The payment request must expire at least ${minSeconds} seconds from now.` };
  if (at > now.getTime() + maxLifetimeMs)
    return { refused: 'The payment request must expire within 7 days.' };
  // Stored in one format (UTC, milliseconds), so the table's conditions compare it as a string.
  return { expiresAt: new Date(at).toISOString() };
}

/** What the rule reads of a request. */
export interface Lifetime {
  status: string;
  expiresAt: string;
  /** The collection the request waits for, if one was started. */
  providerReference?: string | undefined;
  /** Set when that collection failed (a payer who may try again on the page). */
  attemptError?: string | undefined;
}

/** A collection started and not answered with a failure: the provider may still say it was paid. */
export const collectionUnderWay = (request: Lifetime): boolean =>
  request.providerReference !== undefined && request.attemptError === undefined;

/** When an unpaid request ends, in ms since the epoch. */
export const endsAt = (request: Lifetime, graceMs = collectionGraceMs()): number =>
  Date.parse(request.expiresAt) + (collectionUnderWay(request) ? graceMs : 0);

/** A request still `pending` in the table that is over all the same. */
export const hasEnded = (request: Lifetime, now: Date, graceMs = collectionGraceMs()): boolean =>
  request.status === 'pending' && now.getTime() >= endsAt(request, graceMs);
