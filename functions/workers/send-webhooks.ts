import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { changeMessageVisibility } from '#shared/aws/sqs.ts';
import { logger } from '#shared/logger.ts';
import { withMetrics } from '#shared/metrics.ts';
import type { DeliveryMessage } from '#shared/operations/webhook-dispatch.ts';
import { attemptDelivery } from '#shared/operations/webhook-send.ts';

const processor = new BatchProcessor(EventType.SQS);

class NotDelivered extends Error {}

/**
 * Attempts one webhook delivery. A failure sets when the message comes back (the backoff of this
 * attempt) and is reported as the record's failure, so the queue counts the receive; after the
 * last attempt the message comes back at once, to be moved to the dead-letter queue.
 */
async function send(record: SQSRecord): Promise<void> {
  const attempt = Number(record.attributes.ApproximateReceiveCount);
  const result = await attemptDelivery(JSON.parse(record.body) as DeliveryMessage, attempt);
  if (result.done) return;
  await changeMessageVisibility('webhooks', record.receiptHandle, result.retryInSeconds);
  logger.info('webhook not delivered', {
    attempt,
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
