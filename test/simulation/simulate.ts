import { createHash } from 'node:crypto';
import { DeleteTableCommand, DynamoDBClient, ResourceNotFoundException } from '@aws-sdk/client-dynamodb';
import { ensureTable } from '#infra/local/create-table.ts';
import { localWebhookSecretsKeyId, startKmsStandIn } from '#infra/local/kms.ts';
import { LedgerBooks, readBooks } from '#shared/audit/ledger-audit.ts';
import { unsettledPayouts } from '#shared/data/payout.ts';
import { setStepUpThreshold } from '#shared/operations/dashboard-transfers.ts';
import { sandboxSmsGateway } from '#shared/sms/sandbox.ts';
import { asTask, fireEscrowExpiry, startBackground } from '#test/simulation/background.ts';
import { installDeterminism, randomStream, runOnClock, sleep } from '#test/simulation/determinism.ts';
import { type Before, type Findings, judge, walletsOf } from '#test/simulation/model.ts';
import {
  connect,
  disconnect,
  emptyFaults,
  type FaultKind,
  type Network,
  newDigest,
  SimulatedSchedules,
  truthfully,
} from '#test/simulation/network.ts';
import { pawapayTally, payoutTruth, startSimulatedPawapay } from '#test/simulation/pawapay.ts';
import { SimulatedQueues } from '#test/simulation/queues.ts';
import { startReceiver } from '#test/simulation/receiver.ts';
import { buySmsOnce, creditSmsOnce, messageOperations } from '#test/simulation/scenarios/messages.ts';
import {
  creditOnce,
  decidePayout,
  deliverPayoutCallback,
  moneyOutOperations,
} from '#test/simulation/scenarios/money-out.ts';
import { deliverCallback, paymentOperations } from '#test/simulation/scenarios/payments.ts';
import { TableWatch } from '#test/simulation/table-watch.ts';
import { makeWorld, type Operation, type World } from '#test/simulation/world.ts';

/**
 * A deterministic simulation of the service with faults. A seed decides everything: the operations
 * (payments, refunds, cancels, expiries, transfers from the API and from the dashboard with their
 * SMS code, escrows, SMS, callbacks late, reordered, twice and at once), when each starts, how long
 * each DynamoDB call takes (so how they interleave), the faults (throttling, transaction conflicts,
 * timeouts, answers lost after the write, a worker killed after its transaction), how the queues
 * hand their messages to the workers, when the stream's consumer reads. Everything runs on one
 * simulated clock (determinism.ts), against DynamoDB Local in a table of the run's own: the same
 * seed makes the same calls, bit for bit, on any machine and under any load (the report's digest).
 *
 * After every write, the items it touched are read back: their changes are the table's stream (the
 * one way events leave), and the audit's rules are checked over what they touch. At the end, with
 * faults off, the providers settle what is open and the clock runs until nothing is left to do;
 * then the model, computed without reading the ledger, must agree with every balance (model.ts).
 */
export interface SimulationOptions {
  seed: number;
  operations: number;
  /** Chance that a call meets a fault. */
  faultRate?: number;
  /** Operations at most under way at once. */
  concurrency?: number;
  /**
   * Runs as operation `operation` starts, outside the service (its writes are watched like any):
   * how a test plants a defect mid-run to show the audit names it at that very write.
   */
  afterOperation?: (operation: number, store: { businessId: string; storeId: string }) => Promise<void>;
}

export interface SimulationReport extends Omit<Findings, 'mismatches'> {
  seed: number;
  operations: number;
  operationsFailed: number;
  /** The service's DynamoDB calls: how many, and a digest of each one's command and exact input. */
  dynamodbCalls: number;
  dynamodbDigest: string;
  faults: Record<FaultKind, number>;
  callbacksDelivered: number;
  dashboardActions: number;
  stepUpTransfers: number;
  withdrawals: number;
  smsPurchases: number;
  smsRefusedForBalance: number;
  queueMessagesSent: number;
  queueRedeliveries: number;
  queueRetries: number;
  queueDeadLettered: number;
  streamRecords: number;
  streamRecordsParked: number;
  schedulesFired: number;
  /** pawaPay's deposits, payouts and refunds by final status, and the disagreeing callbacks refused. */
  pawapay: Record<string, number>;
  /** How long the run was on the simulated clock. */
  simulatedSeconds: number;
  mismatches: string[];
}

/** A fixed instant, far from today: the run's time is its own (items' TTLs never fall due during it). */
const epoch = Date.UTC(2035, 2, 2, 9, 0, 0);

const operationsOfTheRun: Operation[] = [...paymentOperations, ...moneyOutOperations, ...messageOperations];

/** The port of the process's KMS stand-in, the same for every run (see `simulate`). */
let kmsPort: number | undefined;

/** Runs of this process: a second run of a seed is kept apart from the first (determinism.ts). */
let runs = 0;

export async function simulate(options: SimulationOptions): Promise<SimulationReport> {
  const salt = runs++;
  const { seed } = options;
  const environment = { ...process.env };
  Object.assign(process.env, {
    SANDBOX: 'true',
    // Requests may expire within the run: a second's life at least, a second's grace.
    PAYMENT_REQUEST_MIN_LIFETIME_SECONDS: '1',
    PAYMENT_COLLECTION_GRACE_SECONDS: '1',
    // Escrow holds of minutes, ended by their schedule (kept by the simulation) or the sweep.
    ESCROW_MIN_HOLD_SECONDS: '60',
    ESCROW_SCHEDULE_GROUP: 'simulation',
    ESCROW_EXPIRY_FUNCTION_ARN: 'arn:aws:lambda:::function:expireEscrow',
    ESCROW_SCHEDULER_ROLE_ARN: 'arn:aws:iam:::role/scheduler',
    // The receiver listens on the loopback, which only the local host's policy lets webhooks reach.
    WEBHOOKS_ALLOW_LOOPBACK: 'true',
    AUTH_CACHE_TTL_SECONDS: '0',
    POWERTOOLS_LOG_LEVEL: 'CRITICAL',
    POWERTOOLS_METRICS_DISABLED: 'true',
    TABLE_NAME: `simulation-${seed}-${salt}`,
  });
  // The production schedule of webhook retries: the clock makes its minutes cost nothing.
  delete process.env.WEBHOOK_RETRY_BASE_SECONDS;
  delete process.env.WEBHOOK_TIMEOUT_MS;
  await freshTable(process.env.TABLE_NAME as string);
  // Webhook secrets are encrypted as on a stage, by a KMS of the run's own with a key from the seed,
  // on the port of the process's first: the service's KMS client, made once, keeps that endpoint.
  const kms = await startKmsStandIn({
    keyMaterial: createHash('sha256').update(`kms:${seed}`).digest('hex'),
    ...(kmsPort === undefined ? {} : { port: kmsPort }),
  });
  kmsPort = Number(new URL(kms.endpoint).port);
  process.env.AWS_ENDPOINT_URL_KMS = kms.endpoint;
  process.env.WEBHOOK_SECRETS_KEY_ID = localWebhookSecretsKeyId;
  const receiver = await startReceiver(seed);
  const queues = new SimulatedQueues(randomStream(seed, 'queues'));
  const network: Network = {
    random: randomStream(seed, 'network'),
    faultRate: options.faultRate ?? 0.05,
    armed: false,
    queues,
    schedules: new SimulatedSchedules(fireEscrowExpiry),
    faults: emptyFaults(),
    calls: { count: 0, digest: newDigest() },
    localAddresses: { [receiver.url]: 'http://receiver/webhooks' },
  };
  // The gateway's takes, counted per message: an SMS must be taken once, unless an attempt failed after.
  const takes = new Map<string, number>();
  const gatewaySend = sandboxSmsGateway.send;
  sandboxSmsGateway.send = async (sms) => {
    takes.set(sms.messageId, (takes.get(sms.messageId) ?? 0) + 1);
    return gatewaySend(sms);
  };
  const stopPawapay = startSimulatedPawapay(network, randomStream(seed, 'pawapay'));
  connect(network);
  const determinism = installDeterminism(seed, epoch, salt);
  try {
    return await runOnClock(determinism.clock, () => run(options, network, receiver, takes));
  } finally {
    determinism.uninstall();
    disconnect();
    stopPawapay();
    sandboxSmsGateway.send = gatewaySend;
    await receiver.stop();
    await kms.stop();
    process.env = environment;
  }
}

async function run(
  options: SimulationOptions,
  network: Network,
  receiver: Awaited<ReturnType<typeof startReceiver>>,
  takes: Map<string, number>,
): Promise<SimulationReport> {
  const { seed } = options;
  const random = randomStream(seed, 'operations');
  const world = await makeWorld(random, receiver.url);
  // Above 500 F CFA, a transfer from the dashboard needs the SMS code sent to the owner's phone.
  await setStepUpThreshold(world.member, '500', '127.0.0.1');
  const books = await truthfully(() => readBooks(new LedgerBooks({ remember: true })));
  const watch = new TableWatch(books);
  await truthfully(() => watch.load());
  network.watch = watch;
  const before: Before = await truthfully(async () => {
    const wallets = await walletsOf(world);
    return {
      wallet: wallets.operating.total,
      escrow: wallets.escrow.total,
      accounts: books.report().accountBalances,
    };
  });
  const background = startBackground({
    random: randomStream(seed, 'background'),
    queues: network.queues,
    watch,
    chaos: () => network.armed,
  });
  const auditHeld = (when: string) => {
    const broken = watch.breaks[0];
    if (broken)
      throw new Error(
        `seed ${seed}: the audit broke ${when}, at ${broken.after}: ${JSON.stringify(broken.breaks.slice(0, 3))} (SIMULATION_SEED=${seed} replays it)`,
      );
  };

  // The day: operations arriving one after another, several under way at once, faults armed.
  const totalWeight = operationsOfTheRun.reduce((sum, operation) => sum + operation.weight, 0);
  const pick = (): Operation => {
    let roll = random.next() * totalWeight;
    for (const operation of operationsOfTheRun) {
      roll -= operation.weight;
      if (roll < 0) return operation;
    }
    return operationsOfTheRun[0] as Operation;
  };
  let failed = 0;
  const underWay = new Set<Promise<void>>();
  network.armed = true;
  for (let i = 1; i <= options.operations; i++) {
    await sleep(random.int(0, 300));
    while (underWay.size >= (options.concurrency ?? 4)) await Promise.race(underWay);
    auditHeld(`before operation ${i}`);
    const operation = pick();
    const done: Promise<void> = asTask(`operation ${i} (${operation.name})`, async () => {
      await operation.run(world);
      return true;
    }).then((result) => {
      if (!result) failed++;
      underWay.delete(done);
    });
    underWay.add(done);
    if (options.afterOperation) {
      const store = { businessId: world.m.business.id, storeId: world.m.store.id };
      await truthfully(() => options.afterOperation?.(i, store) ?? Promise.resolve());
      auditHeld(`after operation ${i} (${operation.name})`);
    }
  }
  await Promise.all(underWay);
  auditHeld('after the last operation');
  network.armed = false;

  // The end of the day, with no faults: the merchant's endpoint is back for good, the providers
  // settle what they still owe, and the clock runs until nothing is left to do.
  receiver.failing = 0;
  for (const credit of world.credits.filter((c) => !c.done)) await creditOnce(world, credit);
  for (const credit of world.sms.credits.filter((c) => !c.done)) await creditSmsOnce(world, credit);
  for (const purchase of world.sms.purchases.filter((p) => p.state === 'asked'))
    await buySmsOnce(world, purchase);
  for (let minute = 0; minute < 360; minute++) {
    const open = await settleWhatIsOpen(world);
    await sleep(60_000);
    if (minute >= 40 && !open && background.idle() && network.schedules.pending === 0) break;
  }
  await background.stop();
  auditHeld('at the end');
  const fresh = await truthfully(() => readBooks(new LedgerBooks()));
  const breaks = fresh.check();
  if (breaks.length > 0)
    throw new Error(`seed ${seed}: the full audit broke at the end: ${JSON.stringify(breaks.slice(0, 3))}`);

  const smsFailedAttempts = new Set(
    background.handed
      .filter((batch) => batch.queue === 'sms')
      .flatMap((batch) => batch.items.filter((item) => item.failed))
      .map((item) => (JSON.parse(item.body) as { messageId: string }).messageId),
  );
  const findings = await truthfully(() =>
    judge(world, fresh, before, watch.records, receiver, takes, smsFailedAttempts),
  );
  findings.mismatches.push(...world.problems);
  for (const parked of background.streamRecordsParked)
    findings.mismatches.push(`stream record ${parked.sequence}: given up after its retries`);
  const { mismatches, ...found } = findings;
  return {
    seed,
    operations: options.operations,
    operationsFailed: failed,
    dynamodbCalls: network.calls.count,
    dynamodbDigest: network.calls.digest.digest('hex').slice(0, 32),
    faults: network.faults,
    callbacksDelivered: world.counts.callbacksDelivered,
    dashboardActions: world.counts.dashboardActions,
    stepUpTransfers: world.counts.stepUpTransfers,
    withdrawals: world.counts.withdrawals,
    smsPurchases: world.counts.smsPurchases,
    smsRefusedForBalance: world.sms.refusedForBalance,
    queueMessagesSent: network.queues.tally.sent,
    queueRedeliveries: network.queues.tally.redelivered,
    queueRetries: network.queues.tally.retried,
    queueDeadLettered: network.queues.tally.deadLettered,
    streamRecords: watch.records.length,
    streamRecordsParked: background.streamRecordsParked.length,
    schedulesFired: network.schedules.fired,
    pawapay: pawapayTally(),
    simulatedSeconds: Math.round((Date.now() - epoch) / 1000),
    ...found,
    mismatches,
  };
}

/**
 * One round of the providers settling what they owe: every callback still due delivered, every
 * payout the service waits on (a transfer's, a refund's, an orphan's or an escrow's refund, however
 * the operation that made it ended) decided and its callback delivered. Answers whether anything
 * was still open.
 */
async function settleWhatIsOpen(world: World): Promise<boolean> {
  let open = world.callbacks.length > 0 || world.payoutCallbacks.length > 0;
  while (world.callbacks.length > 0) {
    const callback = world.callbacks.pop() as { reference: string };
    await asTask('a late callback', () => deliverCallback(world, callback.reference));
  }
  const unsettled = await truthfully(() => unsettledPayouts(new Date(Date.now() + 3_600_000), 1_000));
  for (const payout of unsettled) {
    world.payouts.add(payout.id);
    if ((await truthfully(() => payoutTruth(payout.id)))?.state !== 'pending') continue;
    open = true;
    await decidePayout(world, payout.id);
  }
  while (world.payoutCallbacks.length > 0) {
    const callback = world.payoutCallbacks.pop() as { id: string; outcome: 'success' | 'declined' };
    await asTask('a late payout callback', () => deliverPayoutCallback(callback));
  }
  return open || unsettled.length > 0;
}

/** The run's table, made afresh: a run of one seed always starts from the same (empty) table. */
async function freshTable(name: string): Promise<void> {
  const client = new DynamoDBClient({});
  try {
    await client.send(new DeleteTableCommand({ TableName: name }));
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
  } finally {
    await ensureTable(client, name).finally(() => client.destroy());
  }
}

/** Whether two reports of one seed are the same run: everything but nothing (they must be equal). */
export const findingsOf = (report: SimulationReport) => JSON.stringify(report);
