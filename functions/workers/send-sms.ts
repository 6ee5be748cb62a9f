import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { withMetrics } from '#shared/metrics.ts';
import type { SmsQueueMessage } from '#shared/operations/messages.ts';
import { sendQueuedSms } from '#shared/operations/sms-delivery.ts';

const processor = new BatchProcessor(EventType.SQS);

/** Hands one message to the SMS gateway; a passing failure is retried by the queue. */
async function send(record: SQSRecord): Promise<void> {
  await sendQueuedSms(
    JSON.parse(record.body) as SmsQueueMessage,
    Number(record.attributes.ApproximateReceiveCount),
  );
}

export const handler = withMetrics((event: SQSEvent, context: Context) =>
  processPartialResponse(event, send, processor, { context }),
);
