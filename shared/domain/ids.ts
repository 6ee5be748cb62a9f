import { createHash } from 'node:crypto';

/** Ids of the service's objects are UUIDs; anything else is not found without a lookup. */
export const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A UUID-shaped id derived from `seed`: the same seed gives the same id wherever and however often
 * it is computed, so an object made from an event is made once.
 */
export function derivedUuid(seed: string): string {
  const hex = createHash('sha256').update(seed).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
