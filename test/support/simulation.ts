import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, type BatchGetCommandOutput, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { handler as dispatchTableChanges } from '#functions/workers/dispatch-table-changes.ts';
import { handler as expirePaymentRequests } from '#functions/workers/expire-payment-requests.ts';
import { handler as recordSmsEvents } from '#functions/workers/record-sms-events.ts';
import { handler as sendSms } from '#functions/workers/send-sms.ts';
import { handler as sendWebhooks } from '#functions/workers/send-webhooks.ts';
import { lambdaContext } from '#infra/local/lambda-context.ts';
import { createTransferBody } from '#shared/api/transfers.ts';
import { type AuditBreak, emptyScope, LedgerBooks, readBooks } from '#shared/audit/ledger-audit.ts';
import { documentClient, dynamodb, tableName } from '#shared/aws/dynamodb.ts';
import { sqs } from '#shared/aws/sqs.ts';
import { queueUrlVariable } from '#shared/catalogue/queues.ts';
import { findEscrow } from '#shared/data/escrow.ts';
import { getMessage, listMessages, type Message } from '#shared/data/message.ts';
import { orphanIdOf } from '#shared/data/orphan-collection.ts';
import { findPaymentRequest } from '#shared/data/payment-request.ts';
import { getTransfer } from '#shared/data/transfer.ts';
import { listStoreWallets } from '#shared/data/wallet.ts';
import { deliveryIdFor, getDelivery, listDeliveries } from '#shared/data/webhook-delivery.ts';
import { saveSubscription } from '#shared/data/webhook-subscription.ts';
import { defaultFeeSchedule, defaultPayoutFeeSchedule, splitFee } from '#shared/domain/fees.ts';
import { accounts } from '#shared/domain/ledger.ts';
import type { ProviderCode } from '#shared/domain/payment-methods.ts';
import type { SmsDeliveryEvent } from '#shared/domain/sms-events.ts';
import { countSegments } from '#shared/domain/sms-segments.ts';
import { webhookEventNames } from '#shared/domain/webhook-events.ts';
import { AlreadyPosted } from '#shared/errors/ledger.ts';
import { InsufficientSmsBalance } from '#shared/errors/messages.ts';
import { completePayment } from '#shared/operations/complete-payment.ts';
import { completeRefund, sweepPendingRefunds } from '#shared/operations/complete-refund.ts';
import { completeTransfer, sweepPendingTransfers } from '#shared/operations/complete-transfer.ts';
import { creditStore } from '#shared/operations/credit.ts';
import { expireEscrow, refundEscrow, releaseEscrow } from '#shared/operations/escrows.ts';
import { creditSmsBalance, sendMessageFor } from '#shared/operations/messages.ts';
import {
  completeOrphanRefund,
  orphanRefundQueryAfterMs,
  sweepOrphanRefunds,
} from '#shared/operations/orphan-collections.ts';
import { eventOfCompletedRequest } from '#shared/operations/payment-events.ts';
import { createPaymentLinkFor, payThroughLink } from '#shared/operations/payment-links.ts';
import { createPaymentRequestFor, startCollection } from '#shared/operations/payment-requests.ts';
import { createTransferFor } from '#shared/operations/transfers.ts';
import { dispatchPromptly } from '#shared/operations/webhook-dispatch.ts';
import { maxAttempts as maxWebhookAttempts } from '#shared/operations/webhook-send.ts';
import type { CollectionOutcome, PayoutOutcome } from '#shared/providers/port.ts';
import { getSandboxPayout, settleSandboxPayout } from '#shared/providers/sandbox.ts';
import { type SandboxSmsBehaviour, sandboxSmsBehaviour } from '#shared/sms/sandbox.ts';
import { dayTotalsMismatches } from '#test/support/day-totals-check.ts';
import { merchant, operatingWallet } from '#test/support/fixtures.ts';
import { type SimulatedQueues, startSimulatedQueues } from '#test/support/simulated-queues.ts';
import {
  endsOf,
  expireShortLives,
  type LifecycleWorld,
  lifecycleSteps,
  type ShortLives,
} from '#test/support/simulation-lifecycle.ts';
import { everyRefund, refundModel, refundSteps } from '#test/support/simulation-refunds.ts';

/**
 * A deterministic simulation of the service's money paths with faults. A seeded generator drives
 * random operations through the real operations against DynamoDB Local: payment requests (the
 * payer restarting with another provider), link payments, providers deciding collections,
 * callbacks delivered late, reordered, duplicated (also at once) and for superseded collections,
 * store credits, payouts, payout callbacks, refunds of paid payments (some racing for one payment)
 * and the sweepers. Faults are injected by a middleware
 * on the service's real DynamoDB client, inside the SDK's retries: throttling, transaction
 * conflicts, timeouts, a response lost after the write succeeded, and a worker killed right after
 * its transaction committed (every later call of that operation fails). An operation that fails
 * is what a caller would see; the provider keeps redelivering what was not acknowledged.
 *
 * The audit runs every `auditEvery` steps; at the end, with faults off, the providers decide what
 * is still open, every callback is delivered and the sweepers run; then every balance must equal
 * what the providers' truth implies (the model), computed here without reading the ledger.
 */
export interface SimulationOptions {
  seed: number;
  operations: number;
  /** Chance that an SDK call meets a fault. */
  faultRate?: number;
  /** Every this many operations, and at the end, the full audit reads the whole table. */
  auditEvery?: number;
  /**
   * Runs after each operation, as part of it (its writes are audited with the operation's): how a
   * test plants a defect mid-run to show the step audit finds it at that very operation.
   */
  afterOperation?: (operation: number, store: { businessId: string; storeId: string }) => Promise<void>;
}

export type FaultKind = 'throttling' | 'transaction_conflict' | 'timeout' | 'response_lost' | 'worker_killed';

export interface SimulationReport {
  seed: number;
  operations: number;
  operationsFailed: number;
  sdkCalls: number;
  faults: Record<FaultKind, number>;
  callbacksDelivered: number;
  paymentsSucceeded: number;
  orphanCollections: number;
  /** Payment requests that ended unpaid: `expired`, `cancelled`, `abandoned`. */
  paymentRequestsEnded: Record<string, number>;
  /** Orphans of requests that had ended unpaid: successes that came late, refunded. */
  lateSuccessesRefunded: number;
  /** Payments held in escrow (then held, released or refunded). */
  escrows: number;
  payoutsPaid: number;
  /** Refunds of paid payments recorded, and those their provider paid back. */
  refunds: number;
  refundsPaid: number;
  /** SMS recorded (each charged its segments), refused for want of balance, and segments topped up. */
  smsRecorded: number;
  smsRefusedForBalance: number;
  smsSegmentsCredited: number;
  /** Segments of the messages that still count (not given back) at the end. */
  smsSegmentsCharged: number;
  /** Σ |balance − model| over the SMS balances: 0, or the run fails. */
  smsSegmentsLostOrCreated: number;
  /**
   * Messages recorded by a function killed before its queue send: the table stream's consumer
   * queues them; each must end as its number says, or the run fails.
   */
  smsRecordedByKilledSender: number;
  /**
   * Messages the gateway took more than once: only after an attempt that failed once the gateway
   * had taken it (its answer not recorded); two copies of the queue message handled at once, or
   * the stream's copy, never send twice.
   */
  smsHandedToGatewayTwice: number;
  /** Payment requests that left pending with a transaction: each one's webhook must be delivered. */
  webhooksExpected: number;
  /** Of those, failed because the endpoint refused every attempt (the merchant may resend them). */
  webhooksFailedAfterEveryAttempt: number;
  /** Webhook deliveries the merchant's endpoint acknowledged, and those it acknowledged twice. */
  webhooksAcknowledged: number;
  webhooksAcknowledgedTwice: number;
  /** Attempts the merchant's endpoint answered 500 (it is down now and then): retried by the queue. */
  webhookAttemptsRefused: number;
  /** Queue messages handed again to their worker after it handled them, or after it failed them. */
  queueRedeliveries: number;
  queueRetries: number;
  queueDeadLettered: number;
  /** Full audits (the whole table). */
  audits: number;
  /** Audits of what one operation wrote, after every operation. */
  stepAudits: number;
  /** Σ |actual − model| over every balance checked: 0, or the run fails. */
  moneyLostOrCreatedCents: number;
  mismatches: string[];
}

/** mulberry32: a tiny seeded generator, so a seed replays the same run. */
function generator(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    chance: (p: number) => next() < p,
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T,
  };
}

class WorkerKilled extends Error {
  override name = 'WorkerKilled';
}

/** The fault injector, installed once on the real client; `armed` switches it on for a run. */
const injector = {
  armed: false,
  rate: 0,
  random: () => 1,
  /** The keys of the items written (or tried) since the last step audit, when it runs. */
  touched: undefined as Map<string, ItemKey> | undefined,
  /** The current operation's worker died: every later call fails until the next operation. */
  killed: false,
  calls: 0,
  faults: {
    throttling: 0,
    transaction_conflict: 0,
    timeout: 0,
    response_lost: 0,
    worker_killed: 0,
  } as Record<FaultKind, number>,
};

const sdkError = (name: string, retryable: { throttling?: boolean } | undefined) =>
  Object.assign(new Error(`simulated ${name}`), {
    name,
    $fault: 'server',
    $metadata: { httpStatusCode: name === 'ThrottlingException' ? 400 : 500 },
    ...(retryable ? { $retryable: retryable } : {}),
  });

type Middleware = Parameters<typeof dynamodb.middlewareStack.addRelativeTo>[0];

const faultMiddleware: Middleware = ((
  next: (args: unknown) => Promise<unknown>,
  context: { commandName?: string },
) =>
  async (args: unknown) => {
    if (injector.touched)
      noteWrites(context.commandName ?? '', (args as { input: unknown }).input, injector.touched);
    if (!injector.armed) return next(args);
    injector.calls++;
    if (injector.killed) throw new WorkerKilled('the worker was killed');
    const command = (context as { commandName?: string }).commandName ?? '';
    const transaction = command === 'TransactWriteItemsCommand';
    const rate = injector.rate;
    // Transactions meet their own faults more often: they are where money moves.
    if (transaction && injector.random() < rate / 2) {
      injector.faults.transaction_conflict++;
      throw new TransactionCanceledException({
        message: 'simulated conflict',
        $metadata: {},
        CancellationReasons: [{ Code: 'TransactionConflict' }],
      });
    }
    const roll = injector.random();
    if (roll < rate * 0.3) {
      injector.faults.throttling++;
      throw sdkError('ThrottlingException', { throttling: true });
    }
    if (roll < rate * 0.6) {
      injector.faults.timeout++;
      throw sdkError('TimeoutError', {});
    }
    const result = await next(args);
    if (roll < rate) {
      // The request was carried out; its answer never came back. The SDK sends it again.
      injector.faults.response_lost++;
      throw sdkError('TimeoutError', {});
    }
    if (transaction && injector.random() < rate) {
      // Killed between the transaction and whatever came next (the queue send, the provider call).
      injector.faults.worker_killed++;
      injector.killed = true;
      throw new WorkerKilled('the worker was killed after its transaction');
    }
    return result;
  }) as unknown as Middleware;

type ItemKey = { pk: string; sk: string };
type Marshalled = Record<string, { S?: string } | string>;
const keyOf = (key: Marshalled | undefined): ItemKey | undefined => {
  const text = (value: { S?: string } | string | undefined) => (typeof value === 'string' ? value : value?.S);
  const pk = text(key?.pk);
  const sk = text(key?.sk);
  return pk !== undefined && sk !== undefined ? { pk, sk } : undefined;
};

/** Notes the key of every item a write command puts, updates or deletes, succeeded or not. */
function noteWrites(command: string, input: unknown, touched: Map<string, ItemKey>) {
  const note = (key: Marshalled | undefined) => {
    const found = keyOf(key);
    if (found) touched.set(`${found.pk}\u0000${found.sk}`, found);
  };
  const request = input as Record<string, unknown>;
  if (command === 'PutItemCommand') note(request.Item as Marshalled);
  else if (command === 'UpdateItemCommand' || command === 'DeleteItemCommand')
    note(request.Key as Marshalled);
  else if (command === 'TransactWriteItemsCommand') {
    for (const write of request.TransactItems as Record<string, { Item?: Marshalled; Key?: Marshalled }>[]) {
      note(write.Put?.Item);
      note(write.Update?.Key);
      note(write.Delete?.Key);
    }
  } else if (command === 'BatchWriteItemCommand') {
    for (const writes of Object.values(
      request.RequestItems as Record<
        string,
        { PutRequest?: { Item: Marshalled }; DeleteRequest?: { Key: Marshalled } }[]
      >,
    ))
      for (const write of writes) note(write.PutRequest?.Item ?? write.DeleteRequest?.Key);
  }
}

/**
 * The audit after one operation: the new versions of the items it wrote go into the books, and
 * the audit's rules are checked over what they touch (their accounts, shards, SMS balances), so
 * its cost follows the operation, not the table.
 */
async function stepAudit(
  books: LedgerBooks,
  touched: Map<string, ItemKey>,
  seed: number,
  when: string,
): Promise<Map<string, Record<string, unknown>>> {
  const keys = [...touched.values()];
  touched.clear();
  const items = await truthfully(() => readItems(keys));
  const scope = emptyScope();
  for (const key of keys) {
    const touches = books.put(key, items.get(`${key.pk}\u0000${key.sk}`));
    for (const account of touches.accounts) scope.accounts.add(account);
    for (const shard of touches.shards) scope.shards.add(shard);
    for (const business of touches.smsBusinesses) scope.smsBusinesses.add(business);
    for (const payment of touches.refundedPayments) scope.refundedPayments.add(payment);
  }
  const breaks = books.check(scope);
  if (breaks.length > 0) throw auditFailure(seed, when, breaks);
  return items;
}

const auditFailure = (seed: number, when: string, breaks: AuditBreak[]) =>
  new Error(
    `seed ${seed}: the audit broke ${when}: ${JSON.stringify(breaks.slice(0, 3))} (SIMULATION_SEED=${seed} replays it)`,
  );

/** Consistent reads of `keys`, a hundred per request, as BatchGetItem allows. */
async function readItems(keys: ItemKey[]): Promise<Map<string, Record<string, unknown>>> {
  const items = new Map<string, Record<string, unknown>>();
  for (let start = 0; start < keys.length; start += 100) {
    let wanted: Record<string, unknown>[] | undefined = keys.slice(start, start + 100);
    while (wanted && wanted.length > 0) {
      const table = tableName();
      const answer: BatchGetCommandOutput = await documentClient.send(
        new BatchGetCommand({ RequestItems: { [table]: { Keys: wanted, ConsistentRead: true } } }),
      );
      for (const item of answer.Responses?.[table] ?? []) items.set(`${item.pk}\u0000${item.sk}`, item);
      wanted = answer.UnprocessedKeys?.[table]?.Keys;
    }
  }
  return items;
}

let installed = false;
function installFaults() {
  if (installed) return;
  dynamodb.middlewareStack.addRelativeTo(faultMiddleware, {
    relation: 'after',
    toMiddleware: 'retryMiddleware',
    name: 'simulatedFaults',
  });
  // The queue sends meet the same faults (a lost answer makes the SDK send a message twice).
  sqs.middlewareStack.addRelativeTo(faultMiddleware as never, {
    relation: 'after',
    toMiddleware: 'retryMiddleware',
    name: 'simulatedFaults',
  });
  // The simulation decides when a queue message is seen: the stream's delayed copy of an SMS's
  // queue message is there at once, to be handed before, after or beside the prompt one.
  sqs.middlewareStack.add(
    ((next: (args: unknown) => Promise<unknown>) => async (args: unknown) => {
      const input = (args as { input: { QueueUrl?: string; DelaySeconds?: number } }).input;
      if (input.QueueUrl === process.env[queueUrlVariable('sms')]) input.DelaySeconds = undefined;
      return next(args);
    }) as never,
    { step: 'initialize', name: 'simulatedSmsDelays' },
  );
  installed = true;
}

/** Waits until no message of the business has a sender's claim still live. */
async function leasesLapsed(businessId: string): Promise<void> {
  let until = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await truthfully(() =>
      documentClient.send(
        new QueryCommand({
          TableName: tableName(),
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :msg)',
          FilterExpression: 'attribute_exists(sendingUntil)',
          ExpressionAttributeValues: { ':pk': `BIZ#${businessId}`, ':msg': 'MSG#' },
          ConsistentRead: true,
          ExclusiveStartKey: startKey,
        }),
      ),
    );
    for (const item of page.Items ?? []) until = Math.max(until, Date.parse(item.sendingUntil as string));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  if (until > Date.now()) await new Promise((resolve) => setTimeout(resolve, until - Date.now() + 100));
}

/** Runs `work` with the injector off: the harness's own reads and the audit see the truth. */
async function truthfully<T>(work: () => Promise<T>): Promise<T> {
  const armed = injector.armed;
  injector.armed = false;
  try {
    return await work();
  } finally {
    injector.armed = armed;
  }
}

const baseUrl = 'http://localhost:0';
// The sandbox's silent number: nothing is queued; the simulation plays every provider itself.
const silentNumber = '+2250700000004';
const providers: ProviderCode[] = ['wave', 'orange', 'mtn', 'moov', 'djamo'];
// The sandbox SMS gateway's numbers: delivered, refused before the carrier, rejected by the carrier,
// never confirmed, and an ordinary number (delivered).
const smsNumbers = ['+2250700000001', '+2250700000002', '+2250700000003', '+2250700000004', '+2250707123456'];
const smsBodies = [
  'Votre code est {ref}',
  `Commande {ref} livrée. ${'Merci de votre confiance. '.repeat(6)}`,
  'Reçu {ref} ✓ merci 🙏',
  `Rappel {ref}: ${'votre paiement est attendu avant vendredi. '.repeat(9)}`,
];

/** What is wrong with a message's end, for the number it went to; undefined when nothing. */
function smsOutcomeProblem(message: Message, behaviour: SandboxSmsBehaviour): string | undefined {
  const refunded = message.refundedAt !== undefined;
  const beforeCarrier = ['invalid_number', 'not_queued', 'provider_unavailable'];
  if (refunded !== (message.status === 'failed' && beforeCarrier.includes(message.failedReason ?? '')))
    return `${message.status} (${message.failedReason}), ${refunded ? '' : 'not '}given back`;
  if (refunded)
    return behaviour === 'invalid_number' || message.failedReason !== 'invalid_number'
      ? undefined
      : 'refused as an invalid number';
  const expected = {
    delivered: 'delivered',
    carrier_rejected: 'failed',
    never_confirmed: 'sent',
    invalid_number: 'none',
  }[behaviour];
  return message.status === expected ? undefined : `ended ${message.status}, expected ${expected}`;
}

interface Collection {
  reference: string;
  requestId: string;
  provider: ProviderCode;
  amount: number;
  outcome?: CollectionOutcome;
}

interface Callback {
  reference: string;
  deliveries: number;
}

export async function simulate(options: SimulationOptions): Promise<SimulationReport> {
  const queues = await startSimulatedQueues();
  const receiver = await startWebhookReceiver();
  try {
    return await run(options, queues, receiver);
  } finally {
    await receiver.stop();
    await queues.stop();
  }
}

/**
 * A merchant's webhook endpoint: acknowledges a body with a 2xx, or answers 500 with the chance
 * `failing` (the simulation's generator decides), and counts the 2xx answers per body.
 */
async function startWebhookReceiver() {
  const acknowledged = new Map<string, number>();
  const state = { failing: 0, chance: () => 1, refused: 0 };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      if (state.chance() < state.failing) {
        state.refused++;
        response.writeHead(500).end('down');
        return;
      }
      acknowledged.set(body, (acknowledged.get(body) ?? 0) + 1);
      response.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    acknowledged,
    state,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

type WebhookReceiver = Awaited<ReturnType<typeof startWebhookReceiver>>;

async function run(
  options: SimulationOptions,
  queues: SimulatedQueues,
  receiver: WebhookReceiver,
): Promise<SimulationReport> {
  const { seed, operations, faultRate = 0.05, auditEvery = 1 } = options;
  installFaults();
  const random = generator(seed);
  injector.random = random.next;
  injector.rate = faultRate;
  injector.calls = 0;
  for (const kind of Object.keys(injector.faults) as FaultKind[]) injector.faults[kind] = 0;
  process.env.SANDBOX = 'true';
  // Requests may expire within the run: a second's life at least, a second's grace.
  process.env.PAYMENT_REQUEST_MIN_LIFETIME_SECONDS = '1';
  process.env.PAYMENT_COLLECTION_GRACE_SECONDS = '1';
  // The receiver listens on the loopback, which only the local host's policy lets webhooks reach.
  process.env.WEBHOOKS_ALLOW_LOOPBACK = 'true';
  // The simulation hands a failed message back when it chooses, not when its visibility timeout
  // ends: every retry is due at once, so each handing of a pending delivery is an attempt.
  process.env.WEBHOOK_RETRY_BASE_SECONDS = '0';
  receiver.state.chance = random.next;
  receiver.state.failing = 0.2;

  const world = await truthfully(async () => {
    const m = await merchant({ verificationLevel: 3 });
    const link = await createPaymentLinkFor(m.caller, {
      storeId: m.store.id,
      title: 'Simulated link',
      amountCents: 25_000,
      currency: 'XOF',
      allowMultiplePayments: true,
    });
    const subscription = await saveSubscription(
      {
        businessId: m.business.id,
        url: receiver.url,
        name: 'Simulated shop',
        events: [...webhookEventNames],
      },
      { replace: false },
    );
    return { m, link, subscription };
  });
  const { m } = world;

  const escrowWallet = async () =>
    (await listStoreWallets(m.business.id, m.store.id)).find((wallet) => wallet.kind === 'escrow') ?? {
      total: 0,
      blocked: 0,
    };
  /** The books the step audits keep up to date, item by item, between two full audits. */
  let books = await truthfully(() => readBooks(new LedgerBooks({ remember: true })));
  const before = await truthfully(async () => ({
    escrow: (await escrowWallet()).total,
    wallet: await operatingWallet(m.business.id, m.store.id),
    accounts: books.report().accountBalances,
  }));

  const collections = new Map<string, Collection>();
  const requests: string[] = [];
  const callbacks: Callback[] = [];
  const payoutCallbacks: { id: string; outcome: PayoutOutcome }[] = [];
  const payouts = new Set<string>();
  const escrows: string[] = [];
  /** A held escrow's refund is a payout too: the provider decides it like any other. */
  const watchRefund = async (id: string) => {
    const escrow = await truthfully(() => findEscrow(id, true));
    if (escrow?.refundTransferId) payouts.add(escrow.refundTransferId);
  };
  const credits: { entryId: string; amount: number; done: boolean }[] = [];
  /** Every SMS asked for, by reference: recorded or not, the model knows what it asked. */
  const smsAsked = new Map<string, { to: string; body: string; segments: number; answered: boolean }>();
  const smsCredits: { entryId: string; segments: number; done: boolean }[] = [];
  /** message id -> the gateway's ids it got (one per time the gateway took it). */
  const gatewayIds = new Map<string, Set<string>>();
  /** Sends whose function was killed (after the message's transaction, before or in its queue send). */
  const killedSends = new Set<string>();
  const report: SimulationReport = {
    seed,
    operations: 0,
    operationsFailed: 0,
    sdkCalls: 0,
    faults: injector.faults,
    callbacksDelivered: 0,
    paymentsSucceeded: 0,
    orphanCollections: 0,
    paymentRequestsEnded: {},
    lateSuccessesRefunded: 0,
    escrows: 0,
    payoutsPaid: 0,
    refunds: 0,
    refundsPaid: 0,
    smsRecorded: 0,
    smsRefusedForBalance: 0,
    smsSegmentsCredited: 0,
    smsSegmentsCharged: 0,
    smsSegmentsLostOrCreated: 0,
    smsHandedToGatewayTwice: 0,
    smsRecordedByKilledSender: 0,
    webhooksExpected: 0,
    webhooksFailedAfterEveryAttempt: 0,
    webhooksAcknowledged: 0,
    webhooksAcknowledgedTwice: 0,
    webhookAttemptsRefused: 0,
    queueRedeliveries: 0,
    queueRetries: 0,
    queueDeadLettered: 0,
    audits: 0,
    stepAudits: 0,
    moneyLostOrCreatedCents: 0,
    mismatches: [],
  };

  const remember = (requestId: string, provider: ProviderCode, amount: number, reference?: string) => {
    if (reference) collections.set(reference, { reference, requestId, provider, amount });
  };

  const creditOnce = async (credit: { entryId: string; amount: number; done: boolean }) => {
    try {
      await creditStore(m.store.id, credit.amount, credit.entryId);
    } catch (error) {
      // Posted by an earlier attempt whose answer was lost.
      if (!(error instanceof AlreadyPosted)) throw error;
    }
    credit.done = true;
  };

  const deliver = async (callback: Callback): Promise<boolean> => {
    const collection = collections.get(callback.reference) as Collection;
    const completion = await completePayment({
      callbackId: randomUUID(),
      provider: collection.provider,
      providerReference: collection.reference,
      paymentRequestId: collection.requestId,
      outcome: collection.outcome as CollectionOutcome,
      payerPhone: silentNumber,
    });
    report.callbacksDelivered++;
    // As the callback's function does: the completion's webhook leaves at once.
    await dispatchPromptly(completion.events);
    const result = completion;
    if (result.result === 'orphan_collection')
      payouts.add(orphanIdOf(collection.provider, collection.reference));
    return true;
  };

  const deliverPayout = async (callback: { id: string; outcome: PayoutOutcome }) => {
    const payout = await truthfully(() => getSandboxPayout(callback.id));
    if (!payout) return;
    const verified = {
      callbackId: randomUUID(),
      method: payout.method,
      providerReference: payout.providerReference,
      transferId: callback.id,
      outcome: callback.outcome,
    };
    const completion = await completeTransfer(verified);
    if (completion.result === 'unknown_transfer')
      (await completeOrphanRefund(verified)) ?? (await completeRefund(verified));
  };

  const sendSmsOnce = async (reference: string) => {
    const asked = smsAsked.get(reference) as { to: string; body: string; answered: boolean };
    try {
      await sendMessageFor(m.caller, { channel: 'sms', to: asked.to, body: asked.body, reference });
      asked.answered = true;
    } catch (error) {
      if (error instanceof InsufficientSmsBalance) {
        report.smsRefusedForBalance++;
        asked.answered = true;
      }
      if (error instanceof WorkerKilled) killedSends.add(reference);
      throw error;
    }
  };
  const askSms = () => {
    const reference = `sim-sms-${randomUUID()}`;
    const body = random.pick(smsBodies).replace('{ref}', reference.slice(-8));
    smsAsked.set(reference, {
      to: random.pick(smsNumbers),
      body,
      segments: countSegments(body).segments,
      answered: false,
    });
    return reference;
  };
  const creditSmsOnce = async (credit: { entryId: string; segments: number; done: boolean }) => {
    // The same entry id again (a retried top-up) adds nothing.
    await creditSmsBalance(m.business.id, credit.segments, credit.entryId);
    credit.done = true;
  };
  const workers = {
    sms: sendSms,
    smsEvents: recordSmsEvents,
    webhooks: sendWebhooks,
    paymentExpiry: expirePaymentRequests,
  } as const;
  /** SMS and webhook deliveries an attempt of their worker failed on. */
  const attemptFailed = new Set<string>();
  /**
   * SMS and webhook deliveries -> the distinct queue messages handed for them: more than one when
   * a queue send was repeated (its answer lost) or a recovery path sent another.
   */
  const copiesHanded = new Map<string, Set<string>>();
  /**
   * A webhook acknowledged twice: allowed after a failed attempt, or when two copies of its queue
   * message were handled (at once, both find it pending); never for the same message handed again.
   */
  const sentTwiceExplained = (id: string) => attemptFailed.has(id) || (copiesHanded.get(id)?.size ?? 0) > 1;
  /**
   * SMS an attempt failed on after the gateway took them (the message still pending): the retry
   * hands them to the gateway again. The only way an SMS may be taken twice.
   */
  const smsFailedAfterGateway = new Set<string>();
  const gatewayTakes = (id: string) => gatewayIds.get(id)?.size ?? 0;
  const deliverQueued = async (queue: keyof typeof workers, chaos: boolean) => {
    if (queue === 'sms') await noteGatewaySends();
    const takenBefore = new Map([...gatewayIds.keys()].map((id) => [id, gatewayTakes(id)]));
    const handled = await queues.deliver(queue, workers[queue], {
      batchSize: chaos ? random.int(1, 3) : 10,
      pick: (count) => (chaos ? random.int(0, count - 1) : 0),
      redeliver: chaos ? 0.2 : 0,
      chance: random.next,
    });
    if (queue === 'sms') await noteGatewaySends();
    for (const { messageId, body, failed } of handled) {
      if (queue === 'smsEvents' || queue === 'paymentExpiry') continue;
      const parsed = JSON.parse(body) as { businessId: string; messageId?: string; deliveryId?: string };
      const target = (queue === 'sms' ? parsed.messageId : parsed.deliveryId) as string;
      if (failed) attemptFailed.add(target);
      copiesHanded.set(target, (copiesHanded.get(target) ?? new Set()).add(messageId));
      if (queue === 'sms' && failed && gatewayTakes(target) > (takenBefore.get(target) ?? 0)) {
        const message = await truthfully(() => getMessage(parsed.businessId, target, true));
        if (message?.status === 'pending') smsFailedAfterGateway.add(target);
      }
    }
    return handled.length;
  };
  const noteGatewaySends = async () => {
    // The sandbox gateway reports each message it takes on the events queue, with its own id.
    for (const body of await queues.peek('smsEvents')) {
      const event = JSON.parse(body) as SmsDeliveryEvent;
      const id = event.context?.messageId as string;
      gatewayIds.set(id, (gatewayIds.get(id) ?? new Set()).add(event.messageId));
    }
  };

  /** The last image of each payment request, as the table's stream would carry it. */
  const requestImages = new Map<string, Record<string, unknown>>();
  /** Messages the stream has carried the insert of. */
  const messagesInserted = new Set<string>();
  let streamSequence = 0;
  /**
   * The table's stream: a payment request that left pending in this operation, and a message
   * recorded in it, are handed to the real stream consumer, which makes up for a webhook its
   * completing function did not dispatch, or a message its recording function did not queue
   * (killed after its transaction). The event source mapping retries a failed record until it
   * goes through.
   */
  const feedStream = async (written: Map<string, Record<string, unknown>>) => {
    const records: DynamoDBRecord[] = [];
    const image = (value: Record<string, unknown>) =>
      marshall(value, { removeUndefinedValues: true }) as NonNullable<DynamoDBRecord['dynamodb']>['NewImage'];
    for (const [id, item] of written) {
      if (item.entity === 'message' && !messagesInserted.has(id)) {
        // The insert, as it was put: pending, whatever the message became since.
        messagesInserted.add(id);
        records.push({
          eventID: String(++streamSequence),
          eventName: 'INSERT',
          eventSource: 'aws:dynamodb',
          dynamodb: {
            SequenceNumber: String(streamSequence),
            NewImage: image({ ...item, status: 'pending', failedReason: null }),
          },
        });
        continue;
      }
      if (item.entity !== 'payment_request') continue;
      const before = requestImages.get(id);
      requestImages.set(id, item);
      if (!before) {
        // Its insert, as it was put: pending, which queues the check at its expiry.
        records.push({
          eventID: String(++streamSequence),
          eventName: 'INSERT',
          eventSource: 'aws:dynamodb',
          dynamodb: {
            SequenceNumber: String(streamSequence),
            NewImage: image({ ...item, status: 'pending' }),
          },
        });
      }
      if (before?.status !== 'pending' || item.status === 'pending') continue;
      records.push({
        eventID: String(++streamSequence),
        eventName: 'MODIFY',
        eventSource: 'aws:dynamodb',
        dynamodb: { SequenceNumber: String(streamSequence), OldImage: image(before), NewImage: image(item) },
      });
    }
    for (let attempt = 1; records.length > 0; attempt++) {
      let failed: Set<string>;
      try {
        const answer = (await dispatchTableChanges(
          { Records: records },
          lambdaContext('simulated-stream', 30_000),
        )) as { batchItemFailures?: { itemIdentifier: string }[] };
        failed = new Set((answer?.batchItemFailures ?? []).map((failure) => failure.itemIdentifier));
      } catch {
        failed = new Set(records.map((record) => record.dynamodb?.SequenceNumber as string));
      }
      injector.killed = false;
      const left = records.filter((record) => failed.has(record.dynamodb?.SequenceNumber as string));
      records.splice(0, records.length, ...left);
      if (attempt >= 20 && records.length > 0)
        throw new Error(`seed ${seed}: the stream consumer keeps failing`);
    }
  };

  const lifecycle: LifecycleWorld = {
    random,
    caller: m.caller,
    storeId: m.store.id,
    baseUrl,
    providers,
    payerPhone: silentNumber,
    requests,
    remember,
    deliverExpiryChecks: (chaos) => deliverQueued('paymentExpiry', chaos),
  };
  const shortLives: ShortLives = { expiresAt: new Map() };

  type Step = [weight: number, name: string, run: () => Promise<void>];
  const steps: Step[] = [
    ...lifecycleSteps(lifecycle, shortLives),
    [
      14,
      'a payment request started',
      async () => {
        const provider = random.pick(providers);
        const amount = random.int(100, 500_000);
        const request = await createPaymentRequestFor(
          m.caller,
          {
            storeId: m.store.id,
            amountCents: amount,
            currency: 'XOF',
            reference: `sim-${randomUUID()}`,
            paymentDetails: {
              type: 'redirect',
              data: {
                paymentMethod: provider,
                successUrl: 'https://shop.example/ok',
                errorUrl: 'https://shop.example/ko',
              },
            },
          },
          baseUrl,
        );
        requests.push(request.id);
        const started = await startCollection(request, 'redirect', provider, silentNumber, baseUrl);
        remember(request.id, provider, amount, started.providerReference);
      },
    ],
    [
      8,
      'the payer restarts with another provider',
      async () => {
        // The payer goes back and pays with another provider; the first may still succeed.
        const id = requests.length > 0 ? random.pick(requests) : undefined;
        if (!id) return;
        const request = await findPaymentRequest(id, true);
        if (request?.status !== 'pending') return;
        const provider = random.pick(providers);
        const started = await startCollection(request, 'redirect', provider, silentNumber, baseUrl);
        remember(id, provider, request.amountCents, started.providerReference);
      },
    ],
    [
      5,
      'a link payment',
      async () => {
        const provider = random.pick(providers);
        const { request } = await payThroughLink(
          world.link.id,
          { paymentMethod: provider, payerPhone: silentNumber },
          baseUrl,
        );
        requests.push(request.id);
        remember(request.id, provider, request.amountCents, request.providerReference);
      },
    ],
    [
      20,
      'a provider decides a collection',
      async () => {
        // A provider decides a collection; its callback will come once, or several times.
        const open = [...collections.values()].filter((c) => !c.outcome);
        if (open.length === 0) return;
        const collection = random.pick(open);
        collection.outcome = random.chance(0.75)
          ? 'success'
          : random.pick(['declined', 'insufficient_funds'] as const);
        callbacks.push({ reference: collection.reference, deliveries: random.int(1, 3) });
      },
    ],
    [
      25,
      'a collection callback delivered',
      async () => {
        // Any waiting callback, in any order; sometimes two copies at once.
        if (callbacks.length === 0) return;
        const index = random.int(0, callbacks.length - 1);
        const callback = callbacks[index] as Callback;
        const copies = random.chance(0.2) ? 2 : 1;
        const results = await Promise.allSettled(Array.from({ length: copies }, () => deliver(callback)));
        const acknowledged = results.some((r) => r.status === 'fulfilled');
        if (acknowledged && --callback.deliveries <= 0) callbacks.splice(index, 1);
        const failure = results.find((r) => r.status === 'rejected');
        if (failure) throw (failure as PromiseRejectedResult).reason;
      },
    ],
    [
      5,
      'a store credit',
      async () => {
        const credit = credits.find((c) => !c.done) ?? {
          entryId: `credit:${randomUUID()}`,
          amount: random.int(1_000, 300_000),
          done: false,
        };
        if (!credits.includes(credit)) credits.push(credit);
        // A retried credit carries its entry id: it posts once however often it is sent.
        await creditOnce(credit);
      },
    ],
    [
      7,
      'a transfer',
      async () => {
        const transfer = await createTransferFor(
          m.caller,
          createTransferBody.parse({
            storeId: m.store.id,
            amountCents: random.int(100, 100_000),
            currency: 'XOF',
            name: 'Fournisseur',
            paymentMethod: 'mtn',
            identifier: { number: silentNumber },
          }),
          baseUrl,
        );
        payouts.add(transfer.id);
      },
    ],
    [
      8,
      'a provider decides a payout',
      async () => {
        // A provider decides a payout (a transfer's or an orphan's refund).
        if (payouts.size === 0) return;
        const id = random.pick([...payouts]);
        const outcome: PayoutOutcome = random.chance(0.8) ? 'success' : 'declined';
        const settled = await truthfully(() => settleSandboxPayout(id, outcome, false));
        if (settled) payoutCallbacks.push({ id, outcome });
      },
    ],
    [
      6,
      'a payout callback delivered',
      async () => {
        if (payoutCallbacks.length === 0) return;
        const index = random.int(0, payoutCallbacks.length - 1);
        await deliverPayout(payoutCallbacks[index] as { id: string; outcome: PayoutOutcome });
        // Acknowledged; a duplicate may still come later.
        if (random.chance(0.7)) payoutCallbacks.splice(index, 1);
      },
    ],
    [
      5,
      'an escrow payment started',
      async () => {
        // A marketplace's payment, held in escrow until released, refunded or expired.
        const provider = random.pick(providers);
        const amount = random.int(100, 300_000);
        const request = await createPaymentRequestFor(
          { ...m.caller, keyKind: 'platform' },
          {
            storeId: m.store.id,
            amountCents: amount,
            currency: 'XOF',
            reference: `sim-escrow-${randomUUID()}`,
            escrow: { holdDays: 1, onExpiry: random.chance(0.5) ? 'release' : 'refund' },
            paymentDetails: {
              type: 'redirect',
              data: {
                paymentMethod: provider,
                successUrl: 'https://shop.example/ok',
                errorUrl: 'https://shop.example/ko',
              },
            },
          },
          baseUrl,
        );
        requests.push(request.id);
        if (request.escrow) escrows.push(request.escrow.id);
        const started = await startCollection(request, 'redirect', provider, silentNumber, baseUrl);
        remember(request.id, provider, amount, started.providerReference);
      },
    ],
    [
      6,
      'an escrow released, refunded or expired',
      async () => {
        const id = escrows.length > 0 ? random.pick(escrows) : undefined;
        if (!id) return;
        const escrow = await findEscrow(id, true);
        if (escrow?.status !== 'held') return;
        const action = random.next();
        try {
          if (action < 0.4) await releaseEscrow(escrow);
          else if (action < 0.7) await refundEscrow(escrow);
          else await expireEscrow(id, new Date(Date.now() + 2 * 86_400_000));
        } finally {
          await watchRefund(id);
        }
      },
    ],
    [
      7,
      'an SMS sent',
      async () => {
        // Sometimes a client retries a send it got no answer for, with the same reference.
        const unanswered = [...smsAsked.entries()].filter(([, asked]) => !asked.answered);
        const reference = unanswered.length > 0 && random.chance(0.5) ? random.pick(unanswered)[0] : askSms();
        await sendSmsOnce(reference);
      },
    ],
    [
      2,
      'SMS sends racing for the last segments',
      async () => {
        const references = Array.from({ length: random.int(3, 5) }, askSms);
        const results = await Promise.allSettled(references.map(sendSmsOnce));
        const failure = results.find((r) => r.status === 'rejected');
        if (failure) throw (failure as PromiseRejectedResult).reason;
      },
    ],
    [
      3,
      'an SMS top-up',
      async () => {
        const credit = smsCredits.find((c) => !c.done) ?? {
          entryId: `sms-credit:${randomUUID()}`,
          segments: random.int(2, 30),
          done: false,
        };
        if (!smsCredits.includes(credit)) smsCredits.push(credit);
        await creditSmsOnce(credit);
      },
    ],
    [
      8,
      'the SMS sender takes queued messages',
      async () => {
        // Sometimes two senders at once, which may be handed the same queue message (SQS delivers
        // at least once) as well as two copies of one message.
        const senders = random.chance(0.3) ? 2 : 1;
        await Promise.all(Array.from({ length: senders }, () => deliverQueued('sms', true)));
        await noteGatewaySends();
      },
    ],
    [
      6,
      'delivery reports recorded',
      async () => {
        await deliverQueued('smsEvents', true);
      },
    ],
    [
      10,
      'the webhook sender takes queued deliveries',
      async () => {
        await deliverQueued('webhooks', true);
      },
    ],
    ...refundSteps({ random, caller: m.caller, baseUrl, requests, payouts }),
    [
      2,
      'the sweepers run',
      async () => {
        const later = new Date(Date.now() + orphanRefundQueryAfterMs + 60_000);
        await sweepPendingTransfers(later);
        await sweepOrphanRefunds(later);
        await sweepPendingRefunds(later);
      },
    ],
  ];
  const totalWeight = steps.reduce((sum, [weight]) => sum + weight, 0);
  const pickStep = (): Step => {
    let roll = random.next() * totalWeight;
    for (const step of steps) {
      roll -= step[0];
      if (roll < 0) return step;
    }
    return steps[0] as Step;
  };

  const fullAudit = async (when: string) => {
    const fresh = await truthfully(() => readBooks(new LedgerBooks({ remember: true })));
    report.audits++;
    const breaks = fresh.check();
    if (breaks.length > 0) throw auditFailure(seed, when, breaks);
    // The step audits go on from books read afresh: what they keep cannot drift from the table.
    books = fresh;
  };

  injector.armed = true;
  injector.touched = new Map();
  try {
    for (let i = 0; i < operations; i++) {
      injector.killed = false;
      const [, name, run] = pickStep();
      report.operations++;
      try {
        await run();
      } catch {
        report.operationsFailed++;
      }
      if (options.afterOperation)
        await truthfully(
          () =>
            options.afterOperation?.(i + 1, { businessId: m.business.id, storeId: m.store.id }) ??
            Promise.resolve(),
        );
      const when = `after operation ${i + 1} (${name})`;
      const written = await stepAudit(books, injector.touched, seed, when);
      injector.killed = false;
      await feedStream(written);
      report.stepAudits++;
      if ((i + 1) % auditEvery === 0) await fullAudit(when);
    }
  } finally {
    injector.armed = false;
    injector.killed = false;
    injector.touched = undefined;
  }

  // The end of the day, with no faults: what the providers still owe is delivered and settled.
  for (const credit of credits.filter((c) => !c.done)) await creditOnce(credit);
  for (const credit of smsCredits.filter((c) => !c.done)) await creditSmsOnce(credit);
  // A sender killed after claiming a message leaves a claim that lapses with its lease; SQS hands
  // its queue message back only after the visibility timeout, later than that. The simulation
  // hands messages back at once, so it waits the lease out as the queue would.
  await leasesLapsed(m.business.id);
  // Every queued SMS is taken by the sender, every delivery report recorded.
  while ((await queues.waiting('sms')) + (await queues.waiting('smsEvents')) > 0) {
    while ((await deliverQueued('sms', false)) > 0) await noteGatewaySends();
    while ((await deliverQueued('smsEvents', false)) > 0);
  }
  for (let round = 0; round < 4; round++) {
    while (callbacks.length > 0) {
      const callback = callbacks.pop() as Callback;
      await deliver(callback);
    }
    const later = new Date(Date.now() + orphanRefundQueryAfterMs + 60_000);
    await sweepOrphanRefunds(later);
    // Orphans whose report was lost to a fault are the provider's to pay out all the same.
    for (const c of collections.values())
      if (c.outcome === 'success') payouts.add(orphanIdOf(c.provider, c.reference));
    for (const id of escrows) await watchRefund(id);
    // A refund never asked of its provider (its worker killed) is asked now; every one is decided.
    await sweepPendingRefunds(later);
    for (const id of await everyRefund(requests)) payouts.add(id);
    for (const id of payouts) {
      const outcome: PayoutOutcome = random.chance(0.8) ? 'success' : 'declined';
      if (await settleSandboxPayout(id, outcome, false)) payoutCallbacks.push({ id, outcome });
    }
    while (payoutCallbacks.length > 0)
      await deliverPayout(payoutCallbacks.pop() as { id: string; outcome: PayoutOutcome });
    await sweepPendingTransfers(later);
  }
  // Requests made to expire within the run have: their checks all handed to the worker.
  report.mismatches.push(...(await expireShortLives(lifecycle, shortLives)));
  // The merchant's endpoint is back for good: every queued webhook goes out.
  receiver.state.failing = 0;
  while ((await deliverQueued('webhooks', false)) > 0);
  await fullAudit('at the end');

  // The model: balances from what the providers did, not from the ledger.
  const expected = new Map<string, number>();
  const add = (account: string, amount: number) =>
    expected.set(account, (expected.get(account) ?? 0) + amount);
  let walletTotal = before.wallet.total;
  let escrowTotal = before.escrow;
  for (const credit of credits) {
    walletTotal += credit.amount;
    add(accounts.sandboxFunding, -credit.amount);
  }
  const finalRequests = new Map<string, Awaited<ReturnType<typeof findPaymentRequest>>>();
  for (const id of new Set([...requests, ...[...collections.values()].map((c) => c.requestId)]))
    finalRequests.set(id, await findPaymentRequest(id, true));
  report.paymentRequestsEnded = endsOf(finalRequests.values());
  for (const collection of collections.values()) {
    if (collection.outcome !== 'success') continue;
    add(accounts.providerClearing(collection.provider), -collection.amount);
    const request = finalRequests.get(collection.requestId);
    if (request?.providerReference === collection.reference) {
      if (request.status !== 'success')
        report.mismatches.push(
          `request ${request.id}: its collection succeeded, yet it is ${request.status}`,
        );
      const { fee, net } = splitFee(collection.amount, defaultFeeSchedule[collection.provider]);
      report.paymentsSucceeded++;
      if (request.escrow) {
        // Held, released to the store, or refunded to the payer (fee included) by a paid payout.
        const escrow = await findEscrow(request.escrow.id, true);
        const refund = escrow?.refundTransferId ? await getSandboxPayout(escrow.refundTransferId) : undefined;
        report.escrows++;
        if (refund?.state === 'success') {
          if (escrow?.status !== 'refunded')
            report.mismatches.push(`escrow ${escrow?.id}: its refund was paid, yet it is ${escrow?.status}`);
          add(accounts.payoutClearing(refund.method), refund.amountCents);
        } else if (escrow?.status === 'released') {
          walletTotal += net;
          add(accounts.platformFees, fee);
        } else {
          if (escrow?.status !== 'held')
            report.mismatches.push(
              `escrow ${escrow?.id}: paid, never refunded nor released, yet ${escrow?.status}`,
            );
          escrowTotal += net;
          add(accounts.platformFees, fee);
        }
        continue;
      }
      walletTotal += net;
      add(accounts.platformFees, fee);
    } else {
      report.orphanCollections++;
      if (request && ['expired', 'cancelled', 'abandoned'].includes(request.errorReason ?? ''))
        report.lateSuccessesRefunded++;
      const refund = await getSandboxPayout(orphanIdOf(collection.provider, collection.reference));
      if (refund?.state === 'success') {
        add(accounts.payoutClearing(collection.provider), collection.amount);
        report.payoutsPaid++;
      } else add(accounts.payerRefunds, collection.amount);
    }
  }
  const refunds = await refundModel(finalRequests.values(), add);
  walletTotal -= refunds.walletOut;
  let blocked = refunds.blocked;
  report.refunds = refunds.refunds;
  report.refundsPaid = refunds.refundsPaid;
  report.mismatches.push(...refunds.mismatches);
  for (const id of payouts) {
    const transfer = await getTransfer(m.business.id, id, true);
    // An escrow's refund is counted with its escrow.
    if (!transfer || transfer.escrow) continue;
    const payout = await getSandboxPayout(id);
    const fee = splitFee(transfer.amountCents, defaultPayoutFeeSchedule.mtn).fee;
    if (payout?.state === 'success') {
      walletTotal -= transfer.amountCents + fee;
      add(accounts.payoutClearing('mtn'), transfer.amountCents);
      add(accounts.platformFees, fee);
      report.payoutsPaid++;
      if (transfer.status !== 'success')
        report.mismatches.push(`transfer ${id}: paid out, yet ${transfer.status}`);
    } else if (payout?.state === 'pending') blocked += transfer.amountCents + fee;
    else if (transfer.status === 'success') report.mismatches.push(`transfer ${id}: never paid, yet success`);
  }

  const actualWallet = await operatingWallet(m.business.id, m.store.id);
  const actualAccounts = books.report().accountBalances;
  const compare = (name: string, actual: number, model: number) => {
    if (actual !== model) {
      report.mismatches.push(`${name}: ${actual}, the model says ${model}`);
      report.moneyLostOrCreatedCents += Math.abs(actual - model);
    }
  };
  compare('store wallet total', actualWallet.total, walletTotal);
  compare('store wallet blocked', actualWallet.blocked, blocked);
  const actualEscrow = await escrowWallet();
  compare('store escrow wallet total', actualEscrow.total, escrowTotal);
  compare('store escrow wallet blocked', actualEscrow.blocked, 0);
  for (const account of new Set([...expected.keys(), ...Object.keys(actualAccounts)])) {
    compare(
      account,
      (actualAccounts[account] ?? 0) - (before.accounts[account] ?? 0),
      expected.get(account) ?? 0,
    );
  }
  await checkSms();
  await checkWebhooks();
  // The home page's day totals, kept as the money moved, agree with the lines however it moved.
  report.mismatches.push(...(await dayTotalsMismatches(m.business.id, m.store.id)));
  report.webhookAttemptsRefused = receiver.state.refused;
  report.queueRedeliveries = queues.tally.redelivered;
  report.queueRetries = queues.tally.retried;
  report.queueDeadLettered = queues.tally.deadLettered;
  report.sdkCalls = injector.calls;
  return report;

  /**
   * Each webhook body reached the receiver (a 2xx) at most once, unless an attempt of its delivery
   * failed (then once more is at-least-once delivery, which receivers dedupe on the body's id); a
   * delivery recorded delivered was acknowledged.
   */
  async function checkWebhooks() {
    for (const request of finalRequests.values()) {
      if (!request || request.status === 'pending' || !request.transaction) continue;
      const event = eventOfCompletedRequest(request, m.business.name);
      const delivery = await getDelivery(m.business.id, deliveryIdFor(event, world.subscription.id), true);
      report.webhooksExpected++;
      // Failed for good only after the endpoint refused every attempt the queue allows.
      if (
        delivery?.status === 'failed' &&
        delivery.attempts.length === maxWebhookAttempts &&
        delivery.attempts.every((attempt) => attempt.status === 500)
      ) {
        report.webhooksFailedAfterEveryAttempt++;
        continue;
      }
      if (delivery?.status !== 'delivered')
        report.mismatches.push(
          `payment request ${request.id}: its ${event.name} webhook is ${delivery?.status ?? 'missing'}`,
        );
    }
    const { items } = await listDeliveries(m.business.id, { page: 1, limit: 1_000_000 });
    for (const delivery of items) {
      const acks = receiver.acknowledged.get(delivery.body) ?? 0;
      if (acks > 0) report.webhooksAcknowledged++;
      if (acks > 1) {
        report.webhooksAcknowledgedTwice++;
        if (!sentTwiceExplained(delivery.id))
          report.mismatches.push(
            `webhook delivery ${delivery.id}: acknowledged ${acks} times from one queue message, no attempt failed`,
          );
      }
      if (delivery.status === 'delivered' && acks === 0)
        report.mismatches.push(`webhook delivery ${delivery.id}: recorded delivered, never acknowledged`);
    }
  }

  /**
   * The SMS model: the balance is the top-ups the simulation made less the segments (counted
   * here from the bodies it sent) of the messages that still count; a message is given its
   * segments back only when it failed before the carrier took it, and ends as its number says.
   */
  async function checkSms() {
    const { items } = await listMessages(m.business.id, { page: 1, limit: 1_000_000 });
    let model = 0;
    for (const credit of smsCredits) {
      model += credit.segments;
      report.smsSegmentsCredited += credit.segments;
    }
    const seen = new Set<string>();
    for (const message of items) {
      const asked = smsAsked.get(message.reference);
      if (!asked) {
        report.mismatches.push(`sms ${message.id}: recorded, yet nobody sent it`);
        continue;
      }
      // A message whose queue send failed gave its reference back (and its segments): the client's
      // retry records another. Any other reference recorded twice is a second charge.
      const released = message.failedReason === 'not_queued' && message.refundedAt !== undefined;
      if (!released) {
        if (seen.has(message.reference))
          report.mismatches.push(`sms reference ${message.reference}: recorded twice`);
        seen.add(message.reference);
      }
      report.smsRecorded++;
      if (!message.charged || message.segments !== asked.segments)
        report.mismatches.push(
          `sms ${message.id}: charged ${message.charged ? message.segments : 0}, it has ${asked.segments} segments`,
        );
      const refunded = message.refundedAt !== undefined;
      if (!refunded) {
        model -= asked.segments;
        report.smsSegmentsCharged += asked.segments;
      }
      // Recorded and charged, then the function died before its queue send: the table stream's
      // consumer queued it, so it ends as any other (a pending one is a mismatch below).
      if (killedSends.has(message.reference)) report.smsRecordedByKilledSender++;
      const problem = smsOutcomeProblem(message, sandboxSmsBehaviour(asked.to));
      if (problem) report.mismatches.push(`sms ${message.id} to ${asked.to}: ${problem}`);
      const taken = gatewayTakes(message.id);
      if (taken > 1) {
        report.smsHandedToGatewayTwice++;
        if (!smsFailedAfterGateway.has(message.id))
          report.mismatches.push(
            `sms ${message.id}: the gateway took it ${taken} times (${copiesHanded.get(message.id)?.size ?? 0} queue messages), no attempt failed after it took it`,
          );
      }
    }
    const balance = books.smsBalanceOf(m.business.id);
    if (balance !== model) {
      report.mismatches.push(`sms balance: ${balance}, the model says ${model}`);
      report.smsSegmentsLostOrCreated += Math.abs(balance - model);
    }
  }
}
