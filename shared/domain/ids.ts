import { createHash } from 'node:crypto';

/** Ids of the service's objects are UUIDs; anything else is not found without a lookup. */
export const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A UUID-shaped id derived from `seed`: the same seed gives the same id wherever and however often
 * it is computed, so an object made from an event is made once. Shaped as a version 4 UUID: it may
 * be the id a provider is given for a payout (an orphan collection's refund), and pawaPay takes
 * UUIDv4 ids only (https://docs.pawapay.io/v2/api-reference/refunds/initiate-refund).
 */
export function derivedUuid(seed: string): string {
  const hex = createHash('sha256').update(seed).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
