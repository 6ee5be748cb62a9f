import {
  DeleteMessageCommand,
  GetQueueAttributesCommand,
  type Message,
  ReceiveMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import type { Context, SQSEvent } from 'aws-lambda';
import { ensureQueues } from '#infra/local/create-queues.ts';
import { lambdaContext } from '#infra/local/lambda-context.ts';
import { failedMessageIds, toRecord } from '#infra/local/queue-poller.ts';
import { startLocalSqs } from '#infra/local/sqs.ts';
import { type QueueName, queues, queueUrlVariable } from '#shared/catalogue/queues.ts';

export type WorkerHandler = (event: SQSEvent, context: Context) => Promise<unknown>;

interface Held {
  message: Message;
  /** How many times it was handed to the worker: its ApproximateReceiveCount on the next one. */
  receives: number;
}

export interface QueueTally {
  /** Messages handed to a worker again after it had handled them. */
  redelivered: number;
  /** Messages handed again after their worker failed them. */
  retried: number;
  /** Messages the redrive policy parked after their last failed receive. */
  deadLettered: number;
}

/** What `deliver` reports of one batch: each record's SQS message id, body, and whether it failed. */
export type Handled = { messageId: string; body: string; failed: boolean }[];

/**
 * The service's queues on the local SQS (fauxqs), with the simulation in the place of Lambda's
 * event source mapping: what the operations send goes through the real SQS client to real queues,
 * and the simulation receives it and hands it to the real worker handlers in batches of its
 * choosing, from anywhere in the queue (a standard queue keeps no order), sometimes the same
 * message again after it was handled (SQS delivers at least once), a failed one again with its
 * receive count raised, until the redrive policy parks it after `maxReceiveCount` receives.
 */
export async function startSimulatedQueues() {
  const sqs = await startLocalSqs();
  const client = new SQSClient({
    endpoint: sqs.endpoint,
    region: 'eu-west-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const urls = await ensureQueues(client, sqs.endpoint);
  process.env.AWS_ENDPOINT_URL_SQS = sqs.endpoint;
  for (const [name, url] of urls) process.env[queueUrlVariable(name)] = url;
  const arns = new Map<QueueName, string>();
  for (const [name, url] of urls) {
    const { Attributes } = await client.send(
      new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['QueueArn'] }),
    );
    arns.set(name, Attributes?.QueueArn as string);
  }
  const held = new Map<QueueName, Held[]>();
  const tally: QueueTally = { redelivered: 0, retried: 0, deadLettered: 0 };

  const url = (queue: QueueName) => urls.get(queue) as string;

  /** Takes every message now visible; none comes back on its own: the simulation decides that. */
  const pull = async (queue: QueueName): Promise<Held[]> => {
    const waiting = held.get(queue) ?? [];
    held.set(queue, waiting);
    for (;;) {
      const { Messages = [] } = await client.send(
        new ReceiveMessageCommand({
          QueueUrl: url(queue),
          MaxNumberOfMessages: 10,
          VisibilityTimeout: 43_200,
          MessageSystemAttributeNames: ['All'],
        }),
      );
      for (const message of Messages) {
        // One the simulation holds already, shown again by a worker's ChangeMessageVisibility.
        const known = waiting.find((entry) => entry.message.MessageId === message.MessageId);
        if (known) known.message = { ...known.message, ReceiptHandle: message.ReceiptHandle };
        else waiting.push({ message, receives: 0 });
      }
      if (Messages.length < 10) return waiting;
    }
  };

  const remove = async (queue: QueueName, entry: Held) => {
    const waiting = held.get(queue) ?? [];
    const index = waiting.indexOf(entry);
    // Handed to two deliveries at once, and removed by the other one already.
    if (index < 0) return;
    waiting.splice(index, 1);
    await client.send(
      new DeleteMessageCommand({ QueueUrl: url(queue), ReceiptHandle: entry.message.ReceiptHandle }),
    );
  };

  return {
    tally,
    /** The bodies of the messages waiting in `queue`, in no particular order. */
    async peek(queue: QueueName): Promise<string[]> {
      return (await pull(queue)).map((entry) => entry.message.Body ?? '');
    },
    /** How many messages wait in `queue`, taken or not. */
    async waiting(queue: QueueName): Promise<number> {
      return (await pull(queue)).length;
    },
    /**
     * Hands a batch of up to `batchSize` messages, picked by `pick` among those waiting, to
     * `handler`; a handled message stays to be handed again with the chance `redeliver`.
     */
    async deliver(
      queue: QueueName,
      handler: WorkerHandler,
      options: {
        batchSize: number;
        pick: (count: number) => number;
        redeliver: number;
        chance: () => number;
      },
    ): Promise<Handled> {
      const waiting = await pull(queue);
      const batch: Held[] = [];
      while (batch.length < options.batchSize && batch.length < waiting.length) {
        const candidate = waiting[options.pick(waiting.length)] as Held;
        if (!batch.includes(candidate)) batch.push(candidate);
        else break;
      }
      if (batch.length === 0) return [];
      for (const entry of batch) entry.receives++;
      const arn = arns.get(queue) as string;
      const records = batch.map((entry) =>
        toRecord(
          {
            ...entry.message,
            Attributes: { ...entry.message.Attributes, ApproximateReceiveCount: String(entry.receives) },
          },
          arn,
        ),
      );
      let failed: ReadonlySet<string>;
      try {
        failed = failedMessageIds(
          await handler({ Records: records }, lambdaContext(`simulated-${queue}`, 30_000)),
          records,
        );
      } catch {
        // The invocation failed: the whole batch comes back.
        failed = new Set(records.map((record) => record.messageId));
      }
      const handled: Handled = [];
      for (const entry of batch) {
        const wasFailed = failed.has(entry.message.MessageId as string);
        handled.push({
          messageId: entry.message.MessageId as string,
          body: entry.message.Body ?? '',
          failed: wasFailed,
        });
        if (wasFailed) {
          if (entry.receives < queues[queue].maxReceiveCount) tally.retried++;
          else {
            tally.deadLettered++;
            await remove(queue, entry);
          }
        } else if (options.chance() < options.redeliver) tally.redelivered++;
        else await remove(queue, entry);
      }
      return handled;
    },
    async stop() {
      client.destroy();
      await sqs.stop();
    },
  };
}

export type SimulatedQueues = Awaited<ReturnType<typeof startSimulatedQueues>>;
