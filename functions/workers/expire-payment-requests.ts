import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { withMetrics } from '#shared/metrics.ts';
import type { ExpiryCheck } from '#shared/operations/expiry-checks.ts';
import { checkExpiry } from '#shared/operations/payment-expiry.ts';

const processor = new BatchProcessor(EventType.SQS);

/** Looks at one request at its expiry; a failure comes back with the queue's retry. */
async function check(record: SQSRecord): Promise<void> {
  await checkExpiry(JSON.parse(record.body) as ExpiryCheck);
}

export const handler = withMetrics((event: SQSEvent, context: Context) =>
  processPartialResponse(event, check, processor, { context }),
);
