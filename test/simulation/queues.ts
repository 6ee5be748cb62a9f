import { createHash } from 'node:crypto';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { lambdaContext } from '#infra/local/lambda-context.ts';
import { type QueueName, queues, queueUrlVariable } from '#shared/catalogue/queues.ts';
import type { Random } from '#test/simulation/determinism.ts';

/**
 * The service's SQS queues, simulated: what the service's SQS client sends lands here (the
 * client's requests are answered by `handle`, see shared network), and the simulation's pollers
 * hand the messages to the real worker handlers, as Lambda's event source mapping does: a batch
 * of what is visible, picked anywhere in the queue (a standard queue keeps no order); a message
 * handled is deleted, yet now and then handed again (SQS delivers at least once); a failed one
 * comes back after its visibility timeout, or when its worker set it, with its receive count,
 * until the redrive policy parks it after `maxReceiveCount` receives. Time is the simulation's
 * clock: a delayed message, a backoff, a visibility timeout cost no real time.
 */
interface Held {
  id: string;
  body: string;
  visibleAt: number;
  receives: number;
  /** The receipt of its current receive: a worker's ChangeMessageVisibility names it. */
  receipt?: string;
}

export interface QueueTally {
  sent: number;
  /** Messages handed to a worker again after it had handled them. */
  redelivered: number;
  /** Messages handed again after their worker failed them. */
  retried: number;
  /** Messages the redrive policy parked after their last failed receive. */
  deadLettered: number;
}

export type WorkerHandler = (event: SQSEvent, context: Context) => Promise<unknown>;

/** What a batch handed to a worker was, for the simulation's checks. */
export interface Handed {
  messageId: string;
  body: string;
  failed: boolean;
}

// The SDK's own endpoint for the region: a queue URL on another host makes it warn at every send.
const urlPrefix = 'https://sqs.eu-west-1.amazonaws.com/000000000000/';

export class SimulatedQueues {
  readonly tally: QueueTally = { sent: 0, redelivered: 0, retried: 0, deadLettered: 0 };
  readonly deadLetters = new Map<QueueName, Held[]>();
  private readonly held = new Map<QueueName, Held[]>();
  private sequence = 0;
  private receipts = 0;
  /** Called when a message is sent: a poller waiting for one wakes. */
  onSend: (queue: QueueName) => void = () => {};

  constructor(private readonly random: Random) {
    for (const name of Object.keys(queues) as QueueName[]) {
      this.held.set(name, []);
      this.deadLetters.set(name, []);
      process.env[queueUrlVariable(name)] = `${urlPrefix}${name}`;
    }
  }

  private queueOf(url: unknown): QueueName {
    const name = String(url).slice(urlPrefix.length) as QueueName;
    if (!this.held.has(name)) throw new Error(`no simulated queue at ${String(url)}`);
    return name;
  }

  private put(queue: QueueName, body: string, delaySeconds = 0): string {
    const id = `m-${++this.sequence}`;
    (this.held.get(queue) as Held[]).push({
      id,
      body,
      visibleAt: Date.now() + delaySeconds * 1000,
      receives: 0,
    });
    this.tally.sent++;
    this.onSend(queue);
    return id;
  }

  /** Answers one request of the service's SQS client, as SQS would. */
  handle(command: string, input: Record<string, unknown>): Record<string, unknown> {
    switch (command) {
      case 'SendMessageCommand':
        return {
          MessageId: this.put(
            this.queueOf(input.QueueUrl),
            String(input.MessageBody),
            Number(input.DelaySeconds ?? 0),
          ),
          // The SDK checks what SQS says it received against what it sent.
          MD5OfMessageBody: md5(String(input.MessageBody)),
        };
      case 'SendMessageBatchCommand': {
        const queue = this.queueOf(input.QueueUrl);
        const entries = input.Entries as { Id: string; MessageBody: string; DelaySeconds?: number }[];
        return {
          Successful: entries.map((entry) => ({
            Id: entry.Id,
            MessageId: this.put(queue, entry.MessageBody, entry.DelaySeconds ?? 0),
            MD5OfMessageBody: md5(entry.MessageBody),
          })),
          Failed: [],
        };
      }
      case 'ChangeMessageVisibilityCommand': {
        const message = (this.held.get(this.queueOf(input.QueueUrl)) as Held[]).find(
          (held) => held.receipt === input.ReceiptHandle,
        );
        if (message) message.visibleAt = Date.now() + Number(input.VisibilityTimeout) * 1000;
        return {};
      }
      default:
        throw new Error(`the simulated SQS does not answer ${command}`);
    }
  }

  /** Messages on the queue, visible or not, that no worker has done with. */
  waiting(queue: QueueName): number {
    return (this.held.get(queue) as Held[]).length;
  }

  /** When the next message of the queue becomes visible, or undefined when it is empty. */
  nextVisibleAt(queue: QueueName): number | undefined {
    const all = this.held.get(queue) as Held[];
    return all.length === 0 ? undefined : Math.min(...all.map((held) => held.visibleAt));
  }

  /**
   * Hands up to `batchSize` visible messages to `handler` as one invocation, and applies its
   * answer as the event source mapping does. With `chaos`, the batch is picked anywhere in the
   * queue and a handled message is now and then kept to be handed again.
   */
  async deliver(queue: QueueName, handler: WorkerHandler, options: { batchSize: number; chaos: boolean }) {
    const all = this.held.get(queue) as Held[];
    const now = Date.now();
    const visible = all.filter((held) => held.visibleAt <= now);
    const size = options.chaos ? this.random.int(1, options.batchSize) : options.batchSize;
    const batch: Held[] = [];
    while (batch.length < size && visible.length > 0) {
      const index = options.chaos ? this.random.int(0, visible.length - 1) : 0;
      batch.push(...visible.splice(index, 1));
    }
    if (batch.length === 0) return [];
    const { visibilityTimeoutSeconds, maxReceiveCount } = queues[queue];
    for (const held of batch) {
      held.receives++;
      held.receipt = `r-${++this.receipts}`;
      held.visibleAt = now + visibilityTimeoutSeconds * 1000;
    }
    let failedIds: Set<string>;
    try {
      const answer = (await handler(
        { Records: batch.map((held) => recordOf(queue, held)) },
        lambdaContext(queue, 30_000),
      )) as { batchItemFailures?: { itemIdentifier: string }[] } | undefined;
      failedIds = new Set((answer?.batchItemFailures ?? []).map((failure) => failure.itemIdentifier));
    } catch {
      failedIds = new Set(batch.map((held) => held.id));
    }
    const handed: Handed[] = [];
    for (const held of batch) {
      const failed = failedIds.has(held.id);
      handed.push({ messageId: held.id, body: held.body, failed });
      if (failed) {
        // Back after its visibility timeout (or the time its worker set), unless that was its last receive.
        this.tally.retried++;
        if (held.receives >= maxReceiveCount) {
          this.remove(queue, held);
          (this.deadLetters.get(queue) as Held[]).push(held);
          this.tally.deadLettered++;
        }
        continue;
      }
      if (options.chaos && this.random.chance(0.1)) {
        // Handled, yet delivered again: SQS's at-least-once, seen by the worker as a copy.
        held.visibleAt = Date.now();
        this.tally.redelivered++;
        continue;
      }
      this.remove(queue, held);
    }
    return handed;
  }

  private remove(queue: QueueName, held: Held): void {
    const all = this.held.get(queue) as Held[];
    all.splice(all.indexOf(held), 1);
  }
}

const md5 = (text: string) => createHash('md5').update(text).digest('hex');

function recordOf(queue: QueueName, held: Held): SQSRecord {
  return {
    messageId: held.id,
    receiptHandle: held.receipt as string,
    body: held.body,
    attributes: {
      ApproximateReceiveCount: String(held.receives),
      SentTimestamp: '0',
      SenderId: 'simulation',
      ApproximateFirstReceiveTimestamp: '0',
    },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: `arn:aws:sqs:eu-west-1:000000000000:${queue}`,
    awsRegion: 'eu-west-1',
  };
}
