import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { withMetrics } from '#shared/metrics.ts';
import {
  deliverSandboxCallback,
  deliverSandboxPayoutCallback,
  type PendingCallback,
  type PendingPayoutCallback,
} from '#shared/providers/sandbox.ts';

const processor = new BatchProcessor(EventType.SQS);

/** The sandbox provider's delayed callbacks (a payer answering on their phone, a payout settling); failures retry. */
async function deliver(record: SQSRecord): Promise<void> {
  const callback = JSON.parse(record.body) as PendingCallback | PendingPayoutCallback;
  if ('kind' in callback && callback.kind === 'payout') await deliverSandboxPayoutCallback(callback);
  else await deliverSandboxCallback(callback as PendingCallback);
}

export const handler = withMetrics((event: SQSEvent, context: Context) =>
  processPartialResponse(event, deliver, processor, { context }),
);
