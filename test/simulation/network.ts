import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash, type Hash } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { KMSClient } from '@aws-sdk/client-kms';
import { ConflictException, ResourceNotFoundException } from '@aws-sdk/client-scheduler';
import { dynamodb } from '#shared/aws/dynamodb.ts';
import { scheduler } from '#shared/aws/scheduler.ts';
import { sqs } from '#shared/aws/sqs.ts';
import { canonical, currentTask, drawn, io, type Random, sleep } from '#test/simulation/determinism.ts';
import type { SimulatedQueues } from '#test/simulation/queues.ts';
import { keysWritten, type TableWatch } from '#test/simulation/table-watch.ts';

/**
 * The service's own AWS clients, wired into the simulated world: each DynamoDB call takes a
 * simulated latency (how tasks interleave), may meet a fault, and runs against DynamoDB Local; each
 * SQS request is answered by the simulated queues; each one-time schedule is kept by the simulation
 * and fires on its clock. The middlewares sit inside the SDK's retries, so a fault is met as the
 * SDK meets a real one (and retried as it retries one). They are installed once for the process,
 * and do nothing between runs.
 */
export type FaultKind =
  | 'throttling'
  | 'transaction_conflict'
  | 'timeout'
  | 'response_lost'
  | 'worker_killed'
  /** A provider's answer lost after it did the call (pawapay.ts). */
  | 'provider_answer_lost';

export interface Network {
  /** Latencies and faults are drawn from here. */
  random: Random;
  faultRate: number;
  /** Faults are met only while armed (the run's operations; not its end or its own reads). */
  armed: boolean;
  queues: SimulatedQueues;
  watch?: TableWatch | undefined;
  schedules: SimulatedSchedules;
  faults: Record<FaultKind, number>;
  /** Every DynamoDB call of the service, counted and digested (its command and exact input). */
  calls: { count: number; digest: Hash };
  /** The run's one address a machine chooses (the receiver's port), read as a constant in the digest. */
  localAddresses: Record<string, string>;
}

export class WorkerKilled extends Error {
  override name = 'WorkerKilled';
}

/**
 * One line of `SIMULATION_TRACE_CALLS`: simulated time, the task, what happened. Two runs of one
 * seed write the same file; where they part is where the run stopped being the seed's.
 */
export function trace(what: string): void {
  if (process.env.SIMULATION_TRACE_CALLS)
    appendFileSync(
      process.env.SIMULATION_TRACE_CALLS,
      `${Date.now()} r${drawn.random} i${drawn.ids} ${currentTask.getStore()?.name ?? '-'} ${what}\n`,
    );
}

/** The simulation's own reads and writes: no latency, no fault, not counted as the service's. */
const harness = new AsyncLocalStorage<true>();
export const truthfully = <T>(work: () => Promise<T>): Promise<T> => harness.run(true, work);

let current: Network | undefined;
let installed = false;

export function connect(network: Network): void {
  install();
  current = network;
}

export function disconnect(): void {
  current = undefined;
}

export const emptyFaults = (): Record<FaultKind, number> => ({
  throttling: 0,
  transaction_conflict: 0,
  timeout: 0,
  response_lost: 0,
  worker_killed: 0,
  provider_answer_lost: 0,
});

const sdkError = (name: string, retryable: { throttling?: boolean } | undefined) =>
  Object.assign(new Error(`simulated ${name}`), {
    name,
    $fault: 'server',
    $metadata: { httpStatusCode: name === 'ThrottlingException' ? 400 : 500 },
    ...(retryable ? { $retryable: retryable } : {}),
  });

/** Before a call: a throttle or a timeout, the request not carried out. */
function faultBefore(network: Network, transaction: boolean): void {
  const { random, faultRate: rate } = network;
  // Transactions meet their own faults more often: they are where money moves.
  if (transaction && random.next() < rate / 2) {
    network.faults.transaction_conflict++;
    trace('fault transaction_conflict');
    throw new TransactionCanceledException({
      message: 'simulated conflict',
      $metadata: {},
      CancellationReasons: [{ Code: 'TransactionConflict' }],
    });
  }
  const roll = random.next();
  if (roll < rate * 0.3) {
    network.faults.throttling++;
    trace('fault throttling');
    throw sdkError('ThrottlingException', { throttling: true });
  }
  if (roll < rate * 0.6) {
    network.faults.timeout++;
    trace('fault timeout');
    throw sdkError('TimeoutError', {});
  }
}

/** After a call that was carried out: its answer lost (the SDK sends it again), or the task killed. */
function faultAfter(network: Network, transaction: boolean): void {
  const { random, faultRate: rate } = network;
  if (random.next() < rate * 0.4) {
    network.faults.response_lost++;
    trace('fault response_lost');
    throw sdkError('TimeoutError', {});
  }
  const task = currentTask.getStore();
  if (transaction && task && random.next() < rate) {
    // Killed between the transaction and whatever came next (the queue send, the provider call).
    network.faults.worker_killed++;
    trace('fault worker_killed');
    task.killed = true;
    throw new WorkerKilled('the worker was killed after its transaction');
  }
}

const writes = new Set([
  'PutItemCommand',
  'UpdateItemCommand',
  'DeleteItemCommand',
  'TransactWriteItemsCommand',
  'BatchWriteItemCommand',
]);

type Next = (args: unknown) => Promise<unknown>;

/**
 * A call to DynamoDB Local, sent again, below the SDK, when the loopback itself failed it (a kept-
 * alive socket the server closed as it was reused): the machine's sockets are not the simulated
 * network, and the SDK's retry of such an error would draw on the seed where another run does not.
 */
async function reachDynamoDb(next: Next, args: unknown): Promise<unknown> {
  for (let tries = 1; ; tries++) {
    try {
      return await next(args);
    } catch (error) {
      const answered = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      trace(`error ${answered ?? 'unanswered'} ${(error as Error).name}: ${(error as Error).message}`);
      if (answered !== undefined || tries >= 5) throw error;
      if (process.env.SIMULATION_DEBUG) console.error('DynamoDB Local unreachable, sent again:', error);
    }
  }
}
type Middleware = Parameters<typeof dynamodb.middlewareStack.addRelativeTo>[0];

const tableMiddleware = ((next: Next, context: { commandName?: string }) => async (args: unknown) => {
  const network = current;
  if (!network) return next(args);
  const command = context.commandName ?? '';
  const input = (args as { input: unknown }).input;
  const keys = writes.has(command) ? keysWritten(command, input) : [];
  const watched = async <T>(work: () => Promise<T>, what: string): Promise<T> => {
    // Counted here too: a client that made its first call before the run does not go through the
    // tracked `request`.
    io.inFlight++;
    try {
      return await work();
    } finally {
      io.done();
      if (keys.length > 0 && network.watch)
        await truthfully(() => network.watch?.afterWrite(keys, what) ?? Promise.resolve());
    }
  };
  if (harness.getStore()) return watched(() => next(args), `the simulation's ${command}`);
  network.calls.count++;
  let text = `${command} ${canonical(input)}\n`;
  for (const [address, constant] of Object.entries(network.localAddresses))
    text = text.replaceAll(address, constant);
  network.calls.digest.update(text);
  trace(text.trimEnd());
  const transaction = command === 'TransactWriteItemsCommand';
  await sleep(network.random.int(1, transaction ? 20 : 8));
  const task = currentTask.getStore();
  if (task?.killed) throw new WorkerKilled('the worker was killed');
  if (network.armed) faultBefore(network, transaction);
  const result = await watched(() => reachDynamoDb(next, args), `${task?.name ?? 'a task'}: ${command}`);
  if (network.armed) faultAfter(network, transaction);
  return result;
}) as unknown as Middleware;

const queueMiddleware = ((next: Next, context: { commandName?: string }) => async (args: unknown) => {
  const network = current;
  if (!network) return next(args);
  trace(`queue ${context.commandName ?? ''}`);
  await sleep(network.random.int(1, 6));
  if (currentTask.getStore()?.killed) throw new WorkerKilled('the worker was killed');
  if (network.armed) faultBefore(network, false);
  const output = network.queues.handle(
    context.commandName ?? '',
    (args as { input: Record<string, unknown> }).input,
  );
  // The message went; its answer did not come back, so the SDK sends it again.
  if (network.armed && network.random.next() < network.faultRate * 0.4) {
    network.faults.response_lost++;
    trace('fault response_lost (queue)');
    throw sdkError('TimeoutError', {});
  }
  return {
    output: { ...output, $metadata: { httpStatusCode: 200 } },
    response: { statusCode: 200, headers: {} },
  };
}) as unknown as Middleware;

const scheduleMiddleware = ((next: Next, context: { commandName?: string }) => async (args: unknown) => {
  const network = current;
  if (!network) return next(args);
  await sleep(network.random.int(1, 6));
  const input = (args as { input: Record<string, unknown> }).input;
  trace(`schedule ${context.commandName ?? ''} ${String(input.Name)}`);
  const output = network.schedules.handle(context.commandName ?? '', input);
  return {
    output: { ...output, $metadata: { httpStatusCode: 200 } },
    response: { statusCode: 200, headers: {} },
  };
}) as unknown as Middleware;

/**
 * The SDK reads the server's `Date` on every answer and, when it is minutes from the client's
 * clock, moves its own offset and retries the failed call as a transient error. Here the server's
 * clock is the machine's and the client's the simulation's, so when their gap crossed the SDK's
 * threshold was the machine's speed: a conditional check that failed was sent again three times in
 * one run and not in another under load (the first place two such runs parted).
 */
function withoutClockSkewCorrection(config: object): void {
  Object.assign(config, { disableClockSkewCorrection: () => Promise.resolve(true) });
}

function install(): void {
  if (installed) return;
  // The webhook secrets' KMS is reached over real HTTP: each call starts on a tick of its own, so
  // two never race on the wire (the KMS client is the service's own, made when first used).
  const send = KMSClient.prototype.send;
  KMSClient.prototype.send = async function (this: KMSClient, ...args: Parameters<typeof send>) {
    withoutClockSkewCorrection(this.config);
    if (current) await sleep(current.random.int(1, 4));
    return (send as (...a: unknown[]) => Promise<unknown>).apply(this, args);
  } as typeof send;
  withoutClockSkewCorrection(dynamodb.config);
  const placement = { relation: 'after', toMiddleware: 'retryMiddleware' } as const;
  dynamodb.middlewareStack.addRelativeTo(tableMiddleware, { ...placement, name: 'simulatedTable' });
  sqs.middlewareStack.addRelativeTo(queueMiddleware as never, { ...placement, name: 'simulatedQueues' });
  scheduler.middlewareStack.addRelativeTo(scheduleMiddleware as never, {
    ...placement,
    name: 'simulatedSchedules',
  });
  installed = true;
}

/**
 * EventBridge Scheduler's one-time schedules, kept by the simulation: each fires its target at its
 * time on the simulated clock, retried a minute later while it fails (Scheduler's retry policy),
 * and goes once it ran (`ActionAfterCompletion: DELETE`).
 */
export class SimulatedSchedules {
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  fired = 0;

  constructor(private readonly fire: (input: string) => Promise<void>) {}

  handle(command: string, input: Record<string, unknown>): Record<string, unknown> {
    const name = String(input.Name);
    if (command === 'CreateScheduleCommand') {
      if (this.timers.has(name))
        throw new ConflictException({ message: 'exists', Message: 'exists', $metadata: {} });
      const at = Date.parse(`${String(input.ScheduleExpression).slice(3, -1)}Z`);
      const target = input.Target as { Input: string };
      this.arm(name, target.Input, at - Date.now(), 10);
      return { ScheduleArn: `arn:aws:scheduler:::schedule/${name}` };
    }
    if (command === 'DeleteScheduleCommand') {
      const timer = this.timers.get(name);
      if (!timer)
        throw new ResourceNotFoundException({
          message: 'no such schedule',
          Message: 'no such schedule',
          $metadata: {},
        });
      clearTimeout(timer);
      this.timers.delete(name);
      return {};
    }
    throw new Error(`the simulated Scheduler does not answer ${command}`);
  }

  private arm(name: string, input: string, inMs: number, triesLeft: number): void {
    const timer = setTimeout(
      () => {
        currentTask.run({ name: `schedule ${name}`, killed: false }, async () => {
          try {
            await this.fire(input);
            this.fired++;
            this.timers.delete(name);
          } catch {
            if (triesLeft > 1) this.arm(name, input, 60_000, triesLeft - 1);
            else this.timers.delete(name);
          }
        });
      },
      Math.max(0, inMs),
    );
    this.timers.set(name, timer);
  }

  /** Schedules not yet run. */
  get pending(): number {
    return this.timers.size;
  }
}

export const newDigest = () => createHash('sha256');
