/**
 * When a live provider is asked about a collection whose answer has not come: the schedule the
 * collection sweep (shared/settlement/collection-sweep.ts) follows, and its first date, which the
 * collection's start records.
 */

/** A live provider's collection is first asked about this long after it started. */
export const firstCollectionPollAfterMs = 60_000;

/**
 * After the n-th answer of "still pending", the next question waits 2^n minutes, at most 30: about
 * four hours over `maxCollectionPolls` questions, past both providers' own expiry of a collection
 * (Wave's checkout sessions last 30 minutes; MTN ends an unanswered prompt itself), so a final
 * answer comes well before the bound.
 */
export const collectionPollDelayMs = (polls: number) => Math.min(60_000 * 2 ** polls, 30 * 60_000);
export const maxCollectionPolls = 12;
