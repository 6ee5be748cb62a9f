import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { deliverSandboxCallback, type PendingCallback } from '#shared/providers/sandbox.ts';

const processor = new BatchProcessor(EventType.SQS);

/** The sandbox provider's delayed callbacks (a payer answering on their phone); failures retry. */
async function deliver(record: SQSRecord): Promise<void> {
  await deliverSandboxCallback(JSON.parse(record.body) as PendingCallback);
}

export const handler = (event: SQSEvent, context: Context) =>
  processPartialResponse(event, deliver, processor, { context });
