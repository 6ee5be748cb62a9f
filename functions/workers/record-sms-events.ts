import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { withMetrics } from '#shared/metrics.ts';
import { applySmsDeliveryEvent, parseSmsEventMessage } from '#shared/operations/sms-delivery.ts';

const processor = new BatchProcessor(EventType.SQS);

/** The carrier's delivery events move each message to sent, delivered or failed. */
async function record(event: SQSRecord): Promise<void> {
  await applySmsDeliveryEvent(parseSmsEventMessage(event.body));
}

export const handler = withMetrics((event: SQSEvent, context: Context) =>
  processPartialResponse(event, record, processor, { context }),
);
