import { describe, expect, it } from 'vitest';
import {
  type ChangedItem,
  changeOf,
  type StreamedChange,
  streamedChanges,
  streamFilters,
} from '#shared/events/table-changes.ts';
import { matchesFilter, recordOfChange } from '#test/simulation/stream-filter.ts';

const passesTheStack = (change: ChangedItem) =>
  streamFilters().some((filter) => matchesFilter(filter, recordOfChange(change)));

/** Every record each declaration describes: each inserted status, each pair of statuses. */
function recordsOf(declared: StreamedChange): ChangedItem[] {
  const item = (status: string) => ({ entity: declared.entity, status, id: 'x' });
  if ('inserted' in declared)
    return declared.inserted.map((status) => ({ eventName: 'INSERT', after: item(status) }));
  return declared.from.flatMap((from) =>
    declared.to.map((to) => ({ eventName: 'MODIFY', before: item(from), after: item(to) })),
  );
}

describe('the changes that leave through the stream', () => {
  it('each pass the filters the stack gives the event source mapping, and are each one declaration', () => {
    for (const [name, declared] of Object.entries(streamedChanges)) {
      for (const change of recordsOf(declared)) {
        expect(passesTheStack(change), `${name} ${JSON.stringify(change)}`).toBe(true);
        expect(changeOf(change), JSON.stringify(change)).toBe(name);
      }
    }
  });

  it('leave out what announces nothing: an update within a status, a removal, another entity', () => {
    const request = (status: string) => ({ entity: 'payment_request', status, id: 'x' });
    const delivery = { entity: 'webhook_delivery', status: 'pending', id: 'x' };
    const nothing: ChangedItem[] = [
      { eventName: 'MODIFY', before: request('pending'), after: request('pending') },
      { eventName: 'REMOVE', before: request('success') },
      { eventName: 'INSERT', after: delivery },
      { eventName: 'MODIFY', before: delivery, after: { ...delivery, status: 'delivered' } },
    ];
    for (const change of nothing) {
      expect(passesTheStack(change), JSON.stringify(change)).toBe(false);
      expect(changeOf(change)).toBeUndefined();
    }
  });

  it('have the consumer look again at what the unions of the filters let through in excess', () => {
    // A transfer inserted pending passes (transfers are inserted `success` between stores, and
    // `pending` is an insert status of others) but is no declared change: it announces nothing.
    const pending = { eventName: 'INSERT', after: { entity: 'transfer', status: 'pending', id: 'x' } };
    expect(passesTheStack(pending)).toBe(true);
    expect(changeOf(pending)).toBeUndefined();
    // An escrow paid back failing holds it again: no event.
    const heldAgain = {
      eventName: 'MODIFY',
      before: { entity: 'escrow', status: 'refunding', id: 'x' },
      after: { entity: 'escrow', status: 'held', id: 'x' },
    };
    expect(changeOf(heldAgain)).toBeUndefined();
  });
});
