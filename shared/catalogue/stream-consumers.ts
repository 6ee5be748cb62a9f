import type { FunctionDeclaration } from '#shared/catalogue/access.ts';
import { type Located, locatedIn } from '#shared/catalogue/entry-files.ts';
import { streamFilters } from '#shared/events/table-changes.ts';

/**
 * A function fed by the table's stream (new and old images): on AWS an event source mapping that
 * passes only the changes `filter` matches, retries a failing record (bisecting its batch) and
 * then hands it to an on-failure queue; on the local host a poller of DynamoDB Local's stream.
 */
export interface StreamConsumer extends FunctionDeclaration {
  readonly batchSize: number;
  /** Lambda event filter patterns over the stream record: a record matching any one is passed. */
  readonly filters: readonly Record<string, unknown>[];
}

/** Each in `functions/workers/`. */
export const streamConsumers = /* @__PURE__ */ locatedIn('workers', {
  /**
   * The one way out (shared/events/table-changes.ts): every change's webhook event, every recorded
   * SMS and every new payment request's expiry check is queued from its stream record. One consumer
   * for all: a shard's stream allows only two readers.
   */
  dispatchTableChanges: {
    batchSize: 100,
    filters: /* @__PURE__ */ streamFilters(),
    access: ['table:GetItem', 'queue:send:webhooks', 'queue:send:sms', 'queue:send:paymentExpiry'],
  },
} satisfies Record<string, StreamConsumer>);

export type StreamConsumerName = keyof typeof streamConsumers;

export const streamConsumerEntries = /* @__PURE__ */ Object.entries(streamConsumers) as [
  StreamConsumerName,
  StreamConsumer & Located,
][];
