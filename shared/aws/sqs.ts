import {
  ChangeMessageVisibilityCommand,
  SendMessageBatchCommand,
  SendMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { traced } from '#shared/aws/tracing.ts';
import { type QueueName, queueUrlVariable } from '#shared/catalogue/queues.ts';

/**
 * One SQS client per container. The endpoint comes from the standard AWS_ENDPOINT_URL_SQS variable
 * when it is set (the local host's SQS, the tests), so nothing here knows where it runs.
 */
// Pure: a function whose code never sends to a queue leaves the client, and its SDK, out of its bundle.
export const sqs = /* @__PURE__ */ traced(/* @__PURE__ */ new SQSClient({}));

export interface SendOptions {
  /** Hides the message for this long (0 to 900 s), overriding the queue's own delay. */
  readonly delaySeconds?: number;
}

/** SQS takes at most 10 messages per batch request. */
const maxBatchSize = 10;

/** The URL of a queue this function was granted (`queue:send:<queue>` in its declaration) or consumes. */
export function queueUrl(queue: QueueName): string {
  const variable = queueUrlVariable(queue);
  const url = process.env[variable];
  if (!url) {
    throw new Error(
      `${variable} is not set: the function needs the access queue:send:${queue} in its declaration, or to be the queue's worker`,
    );
  }
  return url;
}

/** Sends `body` as JSON and answers the message id. */
export async function sendToQueue(
  queue: QueueName,
  body: unknown,
  options: SendOptions = {},
): Promise<string> {
  const { MessageId } = await sqs.send(
    new SendMessageCommand({
      QueueUrl: queueUrl(queue),
      MessageBody: JSON.stringify(body),
      DelaySeconds: options.delaySeconds,
    }),
  );
  return MessageId as string;
}

/**
 * Sends every body as JSON, ten per request, and answers the message ids in the order of `bodies`.
 * SQS accepts or refuses each entry of a batch on its own; refused entries are sent once more
 * (they are mostly throttling), and if some are still refused this throws: retrying the whole call
 * sends the accepted ones again, so consumers must tolerate duplicates, as with any SQS delivery.
 */
export async function sendBatchToQueue(
  queue: QueueName,
  bodies: readonly unknown[],
  options: SendOptions = {},
): Promise<string[]> {
  const url = queueUrl(queue);
  const ids: string[] = [];
  for (let start = 0; start < bodies.length; start += maxBatchSize) {
    let entries = bodies.slice(start, start + maxBatchSize).map((body, offset) => ({
      Id: String(start + offset),
      MessageBody: JSON.stringify(body),
      DelaySeconds: options.delaySeconds,
    }));
    for (let attempt = 1; entries.length > 0; attempt++) {
      const { Successful = [], Failed = [] } = await sqs.send(
        new SendMessageBatchCommand({ QueueUrl: url, Entries: entries }),
      );
      for (const sent of Successful) ids[Number(sent.Id)] = sent.MessageId as string;
      if (Failed.length === 0) break;
      if (attempt === 2 || Failed.some((failure) => failure.SenderFault)) {
        const reasons = Failed.map((failure) => `#${failure.Id} ${failure.Code}: ${failure.Message}`);
        throw new Error(`SQS refused ${Failed.length} message(s) for ${queue}: ${reasons.join('; ')}`);
      }
      const failedIds = new Set(Failed.map((failure) => failure.Id));
      entries = entries.filter((entry) => failedIds.has(entry.Id));
    }
  }
  return ids;
}

/**
 * Makes a received message visible again after `seconds`, instead of the queue's visibility
 * timeout: how a worker chooses when a failed message is retried. A worker's own queue's URL is
 * in its environment; its event source lets it change the visibility of what it received.
 */
export async function changeMessageVisibility(
  queue: QueueName,
  receiptHandle: string,
  seconds: number,
): Promise<void> {
  await sqs.send(
    new ChangeMessageVisibilityCommand({
      QueueUrl: queueUrl(queue),
      ReceiptHandle: receiptHandle,
      VisibilityTimeout: seconds,
    }),
  );
}
