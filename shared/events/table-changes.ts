/**
 * The changes of the table that make something leave the service: one declaration each, read by
 * the stream's consumer (shared/events/stream-jobs.ts, what each one does) and by the stack, whose
 * event source mapping passes only the records these filters match. Events leave by this one way:
 * the table's stream carries every change with its old and new images, so a change needs no item
 * of its own to be announced, and nothing that was committed can be left unsent (see
 * docs/architecture/decisions.md, "One way out").
 */
export type StreamedChange =
  /** An item put with one of these statuses. */
  | { readonly entity: string; readonly inserted: readonly string[] }
  /** An item whose status moved from one of `from` to one of `to`. */
  | { readonly entity: string; readonly from: readonly string[]; readonly to: readonly string[] };

export const streamedChanges = {
  /** A payment request created: the check at its expiry is queued. */
  paymentRequestCreated: { entity: 'payment_request', inserted: ['pending'] },
  /** A payment request paid or ended unpaid: TRANSACTION_COMPLETED (ESCROW_HELD when held). */
  paymentRequestEnded: { entity: 'payment_request', from: ['pending'], to: ['success', 'error'] },
  /** An SMS recorded, its segments taken: it is queued for the sender. */
  messageRecorded: { entity: 'message', inserted: ['pending'] },
  /** A transfer between two stores, done as it is made: TRANSACTION_COMPLETED. */
  storeTransferMade: { entity: 'transfer', inserted: ['success'] },
  /** A payout of a transfer ended: TRANSACTION_COMPLETED. */
  transferEnded: { entity: 'transfer', from: ['pending'], to: ['success', 'error'] },
  /** A refund of a paid payment ended: REFUND_COMPLETED. */
  refundEnded: { entity: 'refund', from: ['pending'], to: ['success', 'error'] },
  /** A collection that completed nothing, recorded for its refund: COLLECTION_REFUND. */
  orphanRecorded: { entity: 'orphan_collection', inserted: ['refunding'] },
  /** That refund ended: COLLECTION_REFUND. */
  orphanRefundEnded: { entity: 'orphan_collection', from: ['refunding'], to: ['refunded', 'refund_failed'] },
  /** A held escrow released to its store: ESCROW_RELEASED. */
  escrowReleased: { entity: 'escrow', from: ['held'], to: ['released'] },
  /** A held escrow's refund paid: ESCROW_REFUNDED. */
  escrowRefunded: { entity: 'escrow', from: ['refunding'], to: ['refunded'] },
  /** A service provider asked to act for a business: SERVICE_PROVIDER_LINK_REQUEST. */
  linkRequestMade: { entity: 'business_link_request', inserted: ['pending'] },
  /** The owner answered, or the request expired: SERVICE_PROVIDER_LINK_REQUEST. */
  linkRequestEnded: {
    entity: 'business_link_request',
    from: ['pending'],
    to: ['approved', 'declined', 'expired'],
  },
  /** An identity check decided: COMPLIANCE_VERIFICATION_COMPLETED. */
  verificationCompleted: {
    entity: 'compliance_verification',
    from: ['pending'],
    to: ['approved', 'rejected'],
  },
} as const satisfies Record<string, StreamedChange>;

export type StreamedChangeName = keyof typeof streamedChanges;

/** A stream record's kind and its images, unmarshalled. */
export interface ChangedItem {
  readonly eventName?: string | undefined;
  readonly before?: Record<string, unknown> | undefined;
  readonly after?: Record<string, unknown> | undefined;
}

/** Whether a record is the change `declared` describes. */
export function isChange(declared: StreamedChange, change: ChangedItem): boolean {
  const { before, after } = change;
  if (after?.entity !== declared.entity) return false;
  const status = String(after.status);
  if ('inserted' in declared) return change.eventName === 'INSERT' && declared.inserted.includes(status);
  return (
    change.eventName === 'MODIFY' &&
    before?.entity === declared.entity &&
    declared.from.includes(String(before.status)) &&
    declared.to.includes(status)
  );
}

/** Which declared change a record is, if any (at most one matches). */
export function changeOf(change: ChangedItem): StreamedChangeName | undefined {
  for (const [name, declared] of Object.entries(streamedChanges) as [StreamedChangeName, StreamedChange][])
    if (isChange(declared, change)) return name;
  return undefined;
}

const union = (lists: readonly (readonly string[])[]) => [...new Set(lists.flat())].sort();

/**
 * The event source mapping's filters: one for inserts, one for changes of status, each the union of
 * the declarations of its kind. A union passes a little more than the declarations (a transfer
 * inserted pending, say): the consumer looks again with `changeOf`, and ignores the rest.
 */
export function streamFilters(): Record<string, unknown>[] {
  const declared: StreamedChange[] = Object.values(streamedChanges);
  const inserts = declared.filter((change) => 'inserted' in change);
  const moves = declared.filter((change) => 'from' in change);
  return [
    {
      eventName: ['INSERT'],
      dynamodb: {
        NewImage: {
          entity: { S: union(inserts.map((change) => [change.entity])) },
          status: { S: union(inserts.map((change) => ('inserted' in change ? change.inserted : []))) },
        },
      },
    },
    {
      eventName: ['MODIFY'],
      dynamodb: {
        OldImage: {
          entity: { S: union(moves.map((change) => [change.entity])) },
          status: { S: union(moves.map((change) => ('from' in change ? change.from : []))) },
        },
        NewImage: { status: { S: union(moves.map((change) => ('to' in change ? change.to : []))) } },
      },
    },
  ];
}
