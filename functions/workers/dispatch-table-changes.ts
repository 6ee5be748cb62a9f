import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { logger } from '#shared/logger.ts';
import { withMetrics } from '#shared/metrics.ts';
import type { StreamImage } from '#shared/operations/stream-dispatch.ts';
import { dispatchChange } from '#shared/operations/stream-dispatch.ts';

const processor = new BatchProcessor(EventType.DynamoDBStreams);

/**
 * The table's stream, through an event source mapping filtered on payment requests leaving
 * `pending` and messages recorded `pending`: each change's webhook, and each message, reaches its
 * queue even if the function that made it stopped before queueing it. A failed record is reported alone (the mapping bisects and retries from it,
 * then hands it to its on-failure queue).
 */
async function dispatch(record: DynamoDBRecord): Promise<void> {
  const outcome = await dispatchChange({
    eventName: record.eventName,
    oldImage: record.dynamodb?.OldImage as StreamImage | undefined,
    newImage: record.dynamodb?.NewImage as StreamImage | undefined,
  });
  if (outcome === 'dispatched')
    logger.info('webhook dispatched from the stream', { eventId: record.eventID });
}

export const handler = withMetrics((event: DynamoDBStreamEvent, context: Context) =>
  processPartialResponse(event, dispatch, processor, { context }),
);
