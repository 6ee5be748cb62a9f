import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  DeleteMessageBatchCommand,
  GetQueueAttributesCommand,
  type Message,
  ReceiveMessageCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import type { Context, SQSBatchResponse, SQSEvent, SQSMessageAttributes, SQSRecord } from 'aws-lambda';
import { workerEntries } from '#shared/catalogue/queue-workers.ts';
import type { QueueName } from '#shared/catalogue/queues.ts';
import { lambdaContext } from './lambda-context.ts';

/** A worker's handler: answers an `SQSBatchResponse`, or nothing when every record succeeded. */
export type WorkerHandler = (event: SQSEvent, context: Context) => unknown;

export interface QueuePoller {
  /** Ends the long poll under way, waits for a batch being handled, and returns. */
  stop(): Promise<void>;
}

export interface PollQueueOptions {
  readonly client: SQSClient;
  readonly queueUrl: string;
  /** Names the worker in logs and in the Lambda context. */
  readonly functionName: string;
  /** Records per invocation, as the event source mapping's BatchSize. */
  readonly batchSize: number;
  /** The handler itself, or its entry file (relative to `projectRoot`), imported on first use. */
  readonly handler: WorkerHandler | { readonly entry: string; readonly projectRoot: string };
  /** Long-poll wait per receive: Lambda's pollers wait 20 s. */
  readonly waitTimeSeconds?: number;
}

/** A receive answers at most 10 messages; larger batches are gathered from several receives. */
const maxReceive = 10;

/**
 * Plays the part of Lambda's SQS event source mapping on the laptop: long-polls the queue, hands
 * the messages to the worker as an SQSEvent, and deletes those the worker did not report in
 * `batchItemFailures`. If the worker throws, or its answer is malformed, nothing is deleted and the
 * whole batch comes back after the visibility timeout, until the redrive policy moves it to the
 * dead-letter queue, as on AWS.
 */
export function pollQueue(options: PollQueueOptions): QueuePoller {
  const { client, queueUrl, functionName, batchSize } = options;
  const waitTimeSeconds = options.waitTimeSeconds ?? 20;
  const loadHandler = handlerLoader(options.handler);
  let stopped = false;
  const aborter = new AbortController();

  const receive = async (max: number, wait: number): Promise<Message[]> => {
    const { Messages = [] } = await client.send(
      new ReceiveMessageCommand({
        QueueUrl: queueUrl,
        MaxNumberOfMessages: Math.min(max, maxReceive),
        WaitTimeSeconds: wait,
        MessageSystemAttributeNames: ['All'],
        MessageAttributeNames: ['All'],
      }),
      { abortSignal: aborter.signal },
    );
    return Messages;
  };

  const loop = async () => {
    const queueArn = await arnOf(client, queueUrl);
    while (!stopped) {
      let messages: Message[];
      try {
        messages = await receive(batchSize, waitTimeSeconds);
        // A full receive may mean more are waiting; a short one means the queue is drained for now.
        let last = messages.length;
        while (last === maxReceive && messages.length < batchSize) {
          const more = await receive(batchSize - messages.length, 0);
          last = more.length;
          messages.push(...more);
        }
      } catch (error) {
        if (stopped) return;
        console.error(`[${functionName}] receive failed:`, error);
        await new Promise((resolve) => setTimeout(resolve, 1000));
        continue;
      }
      if (messages.length > 0) await deliver(messages, queueArn);
    }
  };

  const deliver = async (messages: Message[], queueArn: string) => {
    const records = messages.map((message) => toRecord(message, queueArn));
    let failed: ReadonlySet<string>;
    try {
      const handler = await loadHandler();
      const answer = await handler({ Records: records }, lambdaContext(functionName, 30_000));
      failed = failedMessageIds(answer, records);
    } catch (error) {
      console.error(`[${functionName}] failed; the batch will be received again:`, error);
      return;
    }
    const done = records.filter((record) => !failed.has(record.messageId));
    for (let start = 0; start < done.length; start += maxReceive) {
      const entries = done.slice(start, start + maxReceive).map((record, index) => ({
        Id: String(index),
        ReceiptHandle: record.receiptHandle,
      }));
      // An undeleted message is handled again after the visibility timeout: a duplicate, which
      // workers must tolerate anyway, rather than a loss.
      try {
        const { Failed = [] } = await client.send(
          new DeleteMessageBatchCommand({ QueueUrl: queueUrl, Entries: entries }),
        );
        for (const failure of Failed)
          console.error(`[${functionName}] could not delete a handled message: ${failure.Message}`);
      } catch (error) {
        console.error(`[${functionName}] could not delete handled messages:`, error);
      }
    }
  };

  const running = loop().catch((error: unknown) => {
    if (!stopped) console.error(`[${functionName}] stopped polling:`, error);
  });
  return {
    stop: async () => {
      stopped = true;
      aborter.abort();
      await running;
    },
  };
}

/**
 * One poller per worker of the function catalogue whose queue the host created, each importing the
 * worker's handler file on its first batch.
 */
export function pollWorkerQueues(options: {
  client: SQSClient;
  projectRoot: string;
  queueUrls: ReadonlyMap<QueueName, string>;
}): QueuePoller {
  const pollers = workerEntries.flatMap(([name, worker]) => {
    const queueUrl = options.queueUrls.get(worker.queue);
    if (!queueUrl) return [];
    return [
      pollQueue({
        client: options.client,
        queueUrl,
        functionName: name,
        batchSize: worker.batchSize,
        handler: { entry: worker.entry, projectRoot: options.projectRoot },
      }),
    ];
  });
  return { stop: async () => void (await Promise.all(pollers.map((poller) => poller.stop()))) };
}

function handlerLoader(handler: PollQueueOptions['handler']): () => Promise<WorkerHandler> {
  if (typeof handler === 'function') return async () => handler;
  let loading: Promise<WorkerHandler> | undefined;
  return () => {
    loading ??= import(pathToFileURL(join(handler.projectRoot, handler.entry)).href).then(
      (module: { handler?: WorkerHandler }) => {
        if (typeof module.handler !== 'function') throw new Error(`${handler.entry} exports no handler`);
        return module.handler;
      },
    );
    // A handler file that is missing or broken is tried again on the next batch, once fixed.
    loading.catch(() => {
      loading = undefined;
    });
    return loading;
  };
}

async function arnOf(client: SQSClient, queueUrl: string): Promise<string> {
  const { Attributes } = await client.send(
    new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['QueueArn'] }),
  );
  const arn = Attributes?.QueueArn;
  if (!arn) throw new Error(`No ARN for queue ${queueUrl}`);
  return arn;
}

/**
 * What Lambda makes of the answer: no answer, or no failures, deletes the whole batch; a failure
 * naming a message that is not in the batch makes the whole batch fail.
 */
export function failedMessageIds(answer: unknown, records: SQSRecord[]): ReadonlySet<string> {
  const everything = new Set(records.map((record) => record.messageId));
  if (answer === undefined || answer === null) return new Set();
  if (typeof answer !== 'object') throw new Error('The answer is not a batch response');
  const failures = (answer as Partial<SQSBatchResponse>).batchItemFailures;
  if (failures === undefined || failures === null) return new Set();
  if (!Array.isArray(failures)) throw new Error('batchItemFailures is not a list');
  const failed = new Set<string>();
  for (const failure of failures) {
    const id: unknown = failure?.itemIdentifier;
    if (typeof id !== 'string' || !everything.has(id))
      throw new Error(`batchItemFailures names ${JSON.stringify(id)}, which is not a message of the batch`);
    failed.add(id);
  }
  return failed;
}

export function toRecord(message: Message, queueArn: string): SQSRecord {
  const attributes = message.Attributes ?? {};
  const messageAttributes: SQSMessageAttributes = {};
  for (const [name, value] of Object.entries(message.MessageAttributes ?? {})) {
    messageAttributes[name] = {
      ...(value.StringValue !== undefined ? { stringValue: value.StringValue } : {}),
      ...(value.BinaryValue !== undefined
        ? { binaryValue: Buffer.from(value.BinaryValue).toString('base64') }
        : {}),
      stringListValues: [],
      binaryListValues: [],
      dataType: value.DataType ?? 'String',
    };
  }
  return {
    messageId: message.MessageId as string,
    receiptHandle: message.ReceiptHandle as string,
    body: message.Body ?? '',
    attributes: {
      ApproximateReceiveCount: attributes.ApproximateReceiveCount ?? '1',
      SentTimestamp: attributes.SentTimestamp ?? '',
      SenderId: attributes.SenderId ?? '',
      ApproximateFirstReceiveTimestamp: attributes.ApproximateFirstReceiveTimestamp ?? '',
      ...(attributes.DeadLetterQueueSourceArn
        ? { DeadLetterQueueSourceArn: attributes.DeadLetterQueueSourceArn }
        : {}),
    },
    messageAttributes,
    md5OfBody: message.MD5OfBody ?? '',
    ...(message.MD5OfMessageAttributes ? { md5OfMessageAttributes: message.MD5OfMessageAttributes } : {}),
    eventSource: 'aws:sqs',
    eventSourceARN: queueArn,
    awsRegion: queueArn.split(':')[3] ?? '',
  };
}
