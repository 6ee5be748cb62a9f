import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { dispatchChange, type StreamImage } from '#shared/events/stream-jobs.ts';
import { logger } from '#shared/logger.ts';
import { withMetrics } from '#shared/metrics.ts';

const processor = new BatchProcessor(EventType.DynamoDBStreams);

/**
 * The table's stream, through an event source mapping filtered on the changes that make something
 * leave the service (shared/events/table-changes.ts): each change's webhook, each recorded SMS and
 * each new request's expiry check is queued from here, and only from here. A failed record is
 * reported alone (the mapping bisects and retries from it, then hands it to its on-failure queue).
 */
async function dispatch(record: DynamoDBRecord): Promise<void> {
  const outcome = await dispatchChange({
    eventName: record.eventName,
    oldImage: record.dynamodb?.OldImage as StreamImage | undefined,
    newImage: record.dynamodb?.NewImage as StreamImage | undefined,
  });
  if (outcome === 'queued') logger.debug('webhook queued from the stream', { eventId: record.eventID });
}

export const handler = withMetrics((event: DynamoDBStreamEvent, context: Context) =>
  processPartialResponse(event, dispatch, processor, { context }),
);
