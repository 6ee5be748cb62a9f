import type { FunctionDeclaration } from '#shared/catalogue/access.ts';
import { type Located, locatedIn } from '#shared/catalogue/entry-files.ts';

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
   * Payment requests leaving `pending`: their webhook, if the completing function did not send it.
   * Payment requests created: the check at their expiry, on the `paymentExpiry` queue.
   * Messages recorded `pending`: a delayed copy of their `sms` queue message, if the recording
   * function did not queue them. One consumer for all: a shard's stream allows only two readers.
   */
  dispatchTableChanges: {
    batchSize: 100,
    filters: [
      {
        eventName: ['MODIFY'],
        dynamodb: {
          OldImage: { entity: { S: ['payment_request'] }, status: { S: ['pending'] } },
          NewImage: { status: { S: ['success', 'error'] } },
        },
      },
      {
        eventName: ['INSERT'],
        dynamodb: { NewImage: { entity: { S: ['message', 'payment_request'] }, status: { S: ['pending'] } } },
      },
    ],
    access: [
      'table:GetItem',
      'table:PutItem',
      'queue:send:webhooks',
      'queue:send:sms',
      'queue:send:paymentExpiry',
    ],
  },
} satisfies Record<string, StreamConsumer>);

export type StreamConsumerName = keyof typeof streamConsumers;

export const streamConsumerEntries = /* @__PURE__ */ Object.entries(streamConsumers) as [
  StreamConsumerName,
  StreamConsumer & Located,
][];
