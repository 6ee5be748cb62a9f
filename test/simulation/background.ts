import type { DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { handler as dispatchTableChanges } from '#functions/workers/dispatch-table-changes.ts';
import { handler as expireEscrow } from '#functions/workers/expire-escrow.ts';
import { handler as expirePaymentRequests } from '#functions/workers/expire-payment-requests.ts';
import { handler as recordSmsEvents } from '#functions/workers/record-sms-events.ts';
import { handler as sendSandboxCallbacks } from '#functions/workers/send-sandbox-callbacks.ts';
import { handler as sendSms } from '#functions/workers/send-sms.ts';
import { handler as sendWebhooks } from '#functions/workers/send-webhooks.ts';
import { handler as sweepEscrows } from '#functions/workers/sweep-escrows.ts';
import { handler as sweepPendingCollections } from '#functions/workers/sweep-pending-collections.ts';
import { handler as sweepUnsettledPayouts } from '#functions/workers/sweep-unsettled-payouts.ts';
import { lambdaContext } from '#infra/local/lambda-context.ts';
import type { QueueName } from '#shared/catalogue/queues.ts';
import { streamFilters } from '#shared/events/table-changes.ts';
import { currentTask, type Random, sleep } from '#test/simulation/determinism.ts';
import type { Handed, SimulatedQueues, WorkerHandler } from '#test/simulation/queues.ts';
import { matchesFilter } from '#test/simulation/stream-filter.ts';
import type { StreamRecord, TableWatch } from '#test/simulation/table-watch.ts';

/**
 * What runs around the operations, as on AWS: the workers on their queues, the table stream's
 * consumer, the schedules' sweeps. Each poll and each run is a task of its own, on the simulated
 * clock. A worker is invoked once at a time, as one Lambda container is (its batch processor keeps
 * the invocation's state): two copies of a message meet in one batch, whose records run at once.
 */
export interface Background {
  /** What the workers were handed, by queue: the simulation's checks read it. */
  handed: { queue: QueueName; items: Handed[] }[];
  /** Stream records given up after their retries: each is an event lost. Must stay 0. */
  streamRecordsParked: StreamRecord[];
  /** Whether nothing is left to hand: every queue empty, every stream record handled. */
  idle(): boolean;
  stop(): Promise<void>;
}

const workers: { queue: QueueName; handler: WorkerHandler; batchSize: number }[] = [
  { queue: 'webhooks', handler: sendWebhooks as WorkerHandler, batchSize: 10 },
  { queue: 'sms', handler: sendSms as WorkerHandler, batchSize: 10 },
  { queue: 'smsEvents', handler: recordSmsEvents as WorkerHandler, batchSize: 10 },
  { queue: 'paymentExpiry', handler: expirePaymentRequests as WorkerHandler, batchSize: 10 },
  { queue: 'sandboxCallbacks', handler: sendSandboxCallbacks as WorkerHandler, batchSize: 10 },
];

/** Runs `work` as a task of its own: its failure is its own, and it may be killed alone. */
export async function asTask<T>(name: string, work: () => Promise<T>): Promise<T | undefined> {
  try {
    return await currentTask.run({ name, killed: false }, work);
  } catch (error) {
    if (process.env.SIMULATION_DEBUG) console.error(`[${name}]`, error);
    return undefined;
  }
}

/** A sleep that `wake` ends early (a message sent, a record written): how a long poll returns. */
function wakeable() {
  let wake = () => {};
  return {
    wake: () => wake(),
    sleep: (ms: number) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      }),
  };
}

export function startBackground(options: {
  random: Random;
  queues: SimulatedQueues;
  watch: TableWatch;
  /** Whether the workers may meet chaos: batches picked anywhere, messages handed twice. */
  chaos: () => boolean;
}): Background {
  const { random, queues, watch } = options;
  let stopped = false;
  const loops: Promise<void>[] = [];
  const background: Background = {
    handed: [],
    streamRecordsParked: [],
    idle: () => workers.every(({ queue }) => queues.waiting(queue) === 0) && position >= watch.records.length,
    stop: async () => {
      stopped = true;
      for (const waker of polls.values()) waker.wake();
      streamWaker.wake();
      for (const sweep of sweeps) sweep.waker.wake();
      await Promise.all(loops);
    },
  };

  // The workers: each poller waits for a visible message (a long poll), then takes a batch.
  const polls = new Map<QueueName, ReturnType<typeof wakeable>>();
  queues.onSend = (queue) => polls.get(queue)?.wake();
  for (const worker of workers) {
    const waker = wakeable();
    polls.set(worker.queue, waker);
    loops.push(
      (async () => {
        while (!stopped) {
          const next = queues.nextVisibleAt(worker.queue);
          const wait = next === undefined ? 20_000 : Math.min(20_000, Math.max(0, next - Date.now()));
          await waker.sleep(wait + random.int(0, 40));
          if (stopped) return;
          const items = await asTask(`${worker.queue} worker`, () =>
            queues.deliver(worker.queue, worker.handler, {
              batchSize: worker.batchSize,
              chaos: options.chaos(),
            }),
          );
          if (items && items.length > 0) background.handed.push({ queue: worker.queue, items });
        }
      })(),
    );
  }

  // The table's stream, in order, through the stack's filters, as its event source mapping reads it.
  const filters = streamFilters();
  let position = 0;
  const streamWaker = wakeable();
  watch.onRecord = () => streamWaker.wake();
  loops.push(
    (async () => {
      while (!stopped) {
        await streamWaker.sleep(position < watch.records.length ? 250 + random.int(0, 50) : 60_000);
        if (stopped) return;
        const end = Math.min(watch.records.length, position + (options.chaos() ? random.int(1, 100) : 100));
        const batch = watch.records.slice(position, end);
        position = end;
        await handStream(
          batch.filter((record) => filters.some((filter) => matchesFilter(filter, lambdaRecord(record)))),
        );
      }
    })(),
  );
  /** Hands a batch, then again from its first failed record with backoff, 10 times at most. */
  async function handStream(batch: StreamRecord[]): Promise<void> {
    let remaining = batch;
    for (let attempt = 1; remaining.length > 0; attempt++) {
      const event: DynamoDBStreamEvent = { Records: remaining.map(lambdaRecord) };
      const answer = await asTask('stream consumer', async () =>
        dispatchTableChanges(event, lambdaContext('dispatchTableChanges', 60_000)),
      );
      const failures = (answer as { batchItemFailures?: { itemIdentifier: string }[] } | undefined)
        ?.batchItemFailures;
      const failedFrom =
        answer === undefined
          ? 0
          : Math.min(
              ...(failures ?? []).map((failure) =>
                Math.max(
                  0,
                  remaining.findIndex((record) => String(record.sequence) === failure.itemIdentifier),
                ),
              ),
              remaining.length,
            );
      remaining = remaining.slice(failedFrom);
      if (remaining.length === 0) return;
      if (attempt >= 10) {
        background.streamRecordsParked.push(remaining[0] as StreamRecord);
        remaining = remaining.slice(1);
        attempt = 0;
        continue;
      }
      await sleep(Math.min(1_000 * 2 ** (attempt - 1), 60_000));
    }
  }

  // The schedules: every minute, the payouts' and collections' sweeps; every five, the escrows'.
  const sweeps = [
    { every: 60_000, name: 'sweepUnsettledPayouts', run: sweepUnsettledPayouts, waker: wakeable() },
    { every: 60_000, name: 'sweepPendingCollections', run: sweepPendingCollections, waker: wakeable() },
    { every: 300_000, name: 'sweepEscrows', run: sweepEscrows, waker: wakeable() },
  ];
  for (const sweep of sweeps) {
    loops.push(
      (async () => {
        while (!stopped) {
          await sweep.waker.sleep(sweep.every);
          if (stopped) return;
          await asTask(sweep.name, () => (sweep.run as () => Promise<void>)());
        }
      })(),
    );
  }
  return background;
}

/** The escrow expiry's schedule target, as Scheduler invokes it. */
export const fireEscrowExpiry = async (input: string) => {
  await expireEscrow(JSON.parse(input) as { escrowId: string });
};

function lambdaRecord(record: StreamRecord): DynamoDBRecord {
  return {
    eventID: String(record.sequence),
    eventName: record.eventName,
    eventSource: 'aws:dynamodb',
    dynamodb: {
      Keys: record.keys as never,
      SequenceNumber: String(record.sequence),
      ...(record.oldImage ? { OldImage: record.oldImage as never } : {}),
      ...(record.newImage ? { NewImage: record.newImage as never } : {}),
    },
  };
}
