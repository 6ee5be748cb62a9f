import { marshall } from '@aws-sdk/util-dynamodb';
import type { ChangedItem } from '#shared/events/table-changes.ts';

/**
 * Lambda's event filtering, for the patterns the stack gives the stream's event source mapping:
 * every key of the pattern must be in the record, a list of values matches a value among them, an
 * object matches the record's object.
 */
export function matchesFilter(pattern: unknown, value: unknown): boolean {
  if (Array.isArray(pattern)) return pattern.includes(value);
  if (pattern && typeof pattern === 'object') {
    if (!value || typeof value !== 'object') return false;
    return Object.entries(pattern).every(([key, inner]) =>
      matchesFilter(inner, (value as Record<string, unknown>)[key]),
    );
  }
  return pattern === value;
}

/** A change as the stream record Lambda's filters read. */
export const recordOfChange = (change: ChangedItem) => ({
  eventName: change.eventName,
  dynamodb: {
    ...(change.before ? { OldImage: marshall(change.before) } : {}),
    ...(change.after ? { NewImage: marshall(change.after) } : {}),
  },
});
