import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { changeMessageVisibility } from '#shared/aws/sqs.ts';
import type { DeliveryMessage } from '#shared/events/announce.ts';
import { logger } from '#shared/logger.ts';
import { withMetrics } from '#shared/metrics.ts';
import { attemptDelivery } from '#shared/operations/webhook-send.ts';

const processor = new BatchProcessor(EventType.SQS);

class NotDelivered extends Error {}

/** When a message whose handling failed comes back. */
const retryAfterFailureSeconds = 10;

/**
 * Attempts one webhook delivery, the attempt its record counts. A failure (or an attempt not yet
 * due) sets when the message comes back and is reported as the record's failure, so the queue
 * keeps it; a delivery that is over (delivered, or failed at its last attempt) lets it go.
 */
async function send(record: SQSRecord): Promise<void> {
  const receiveCount = Number(record.attributes.ApproximateReceiveCount);
  const result = await attemptDelivery(JSON.parse(record.body) as DeliveryMessage, receiveCount).catch(
    async (error: unknown) => {
      // A passing failure (a throttle, a timeout) is tried again in seconds, not after the queue's
      // visibility timeout of minutes: the webhook is owed now. Best effort: the timeout is the net.
      await changeMessageVisibility('webhooks', record.receiptHandle, retryAfterFailureSeconds).catch(
        () => {},
      );
      throw error;
    },
  );
  if (result.done) return;
  await changeMessageVisibility('webhooks', record.receiptHandle, result.retryInSeconds);
  logger.info('webhook not delivered', {
    nextAttempt: result.attempt,
    receiveCount,
    retryInSeconds: result.retryInSeconds,
    reason: result.reason,
  });
  throw new NotDelivered(result.reason);
}

// A receiver that is down fails every record of a batch: that is its failure, not the function's,
// so it is reported record by record instead of failing the invocation (and its error alarm).
export const handler = withMetrics((event: SQSEvent, context: Context) =>
  processPartialResponse(event, send, processor, { context, throwOnFullBatchFailure: false }),
);
