import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { queueUrlVariable } from '#shared/catalogue/queues.ts';
import type { Caller } from '#shared/domain/caller.ts';
import type { ProviderCode } from '#shared/domain/payment-methods.ts';
import type { DeliveryMessage } from '#shared/events/announce.ts';
import { type CapacityTotals, measureUnits, roundTrips } from '#test/bench/bench-dynamodb.ts';
import { redirectRequestBody } from '#test/support/payment-request-body.ts';
import { startWebhookReceiver } from '#test/support/webhook-receiver.ts';

export interface PaidPaymentStep {
  step: string;
  /** Median over the payments measured; units do not vary, durations do. */
  readUnits: number;
  writeUnits: number;
  requests: number;
  largestItemBytes: number;
  medianMs: number;
  /** The Lambda function the step runs in (the dispatch runs in the callback's). */
  lambda: string;
  /** API Gateway requests and SQS requests the step makes on AWS. */
  apiRequests: number;
  sqsRequests: number;
  /** Not part of a paid payment: a status poll, billed per poll. */
  extra?: boolean;
  /** Where the write units go: each item written (ids generalised) and its units, in one run. */
  writes?: { item: string; units: number }[];
  /** The DynamoDB requests in the order sent, and how many round trips they took (median). */
  requestNames?: string[];
  roundTrips?: number;
}

export interface PaidPayment {
  payments: number;
  steps: PaidPaymentStep[];
  readUnits: number;
  writeUnits: number;
}

const paidPayments = 15;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/**
 * Everything a paid payment writes and reads, end to end, `paidPayments` times: create (API), the
 * provider flow started from the hosted page, the verified callback completing it, the dispatch of
 * its TRANSACTION_COMPLETED event (in the callback's function, as in production) and one delivery
 * to a receiver answering 200. SQS is not called: its requests are counted by a middleware that
 * answers in its place, since what is measured here is DynamoDB and time.
 */
export async function measurePaidPayments(
  caller: Caller,
  storeId: string,
  businessId: string,
  baseUrl: string,
  /** The method and payer, so the route chooses the adapter (the sandbox's, or pawaPay's). */
  via: { method: ProviderCode; phone: string; label: string } = {
    method: 'wave',
    phone: '+2250700000001',
    label: 'sandbox',
  },
): Promise<PaidPayment> {
  process.env.WEBHOOKS_ALLOW_LOOPBACK = 'true';
  process.env[queueUrlVariable('webhooks')] = 'https://sqs.bench.invalid/000000000000/webhooks';
  process.env[queueUrlVariable('paymentExpiry')] = 'https://sqs.bench.invalid/000000000000/paymentExpiry';
  const { sqs } = await import('#shared/aws/sqs.ts');
  let sent: DeliveryMessage[] = [];
  // Measured more than once (per route): the counter of this run replaces the last one's.
  sqs.middlewareStack.remove('benchSqsCounter');
  sqs.middlewareStack.add(
    () => async (args) => {
      sent.push(JSON.parse((args.input as { MessageBody: string }).MessageBody) as DeliveryMessage);
      return { output: { MessageId: randomUUID(), $metadata: {} }, response: {} } as never;
    },
    { step: 'initialize', name: 'benchSqsCounter' },
  );
  const receiver = await startWebhookReceiver();
  // Subscriptions keep their signing secret encrypted: useBenchTable's KMS stand-in encrypts it (one
  // per process: the KMS client keeps the endpoint it was made with).
  const { saveSubscription } = await import('#shared/data/webhook-subscription.ts');
  await saveSubscription({ businessId, url: receiver.url, name: 'bench', events: [] }, { replace: true });
  const { createPaymentRequestFor, paymentRequestOf, startCollection } = await import(
    '#shared/operations/payment-requests.ts'
  );
  const { completePayment } = await import('#shared/settlement/collections.ts');
  const { dispatchChange } = await import('#shared/events/stream-jobs.ts');
  const { checkExpiry } = await import('#shared/operations/payment-expiry.ts');
  const { documentClient, tableName } = await import('#shared/aws/dynamodb.ts');
  const { paymentRequestKey } = await import('#shared/data/payment-request.ts');
  const { GetCommand } = await import('@aws-sdk/lib-dynamodb');
  const { marshall } = await import('@aws-sdk/util-dynamodb');
  // The request's item as the stream's images carry it.
  const imageOf = async (id: string) => {
    const { Item } = await documentClient.send(
      new GetCommand({ TableName: tableName(), Key: paymentRequestKey(id), ConsistentRead: true }),
    );
    return marshall(Item ?? {}, { removeUndefinedValues: true });
  };
  const { attemptDelivery } = await import('#shared/operations/webhook-send.ts');

  const samples = new Map<string, { units: CapacityTotals; ms: number }[]>();
  async function step<T>(name: string, run: () => Promise<T>): Promise<T> {
    const started = performance.now();
    const { result, units } = await measureUnits(run);
    const ms = performance.now() - started;
    samples.set(name, [...(samples.get(name) ?? []), { units, ms }]);
    return result;
  }
  try {
    for (let i = 0; i < paidPayments; i++) {
      const created = await step('create (POST /payment_requests)', () =>
        createPaymentRequestFor(
          caller,
          redirectRequestBody(storeId, { reference: `paid-${via.label}-${i}`, paymentMethod: via.method }),
          baseUrl,
        ),
      );
      // The table's stream carries the request's insert: the check at its expiry is queued.
      const insert = { eventName: 'INSERT', newImage: await imageOf(created.id) };
      sent = [];
      const queuedCheck = await step("expiry: stream dispatch (the request's insert)", () =>
        dispatchChange(insert),
      );
      if (queuedCheck !== 'expiry_queued' || sent.length !== 1)
        throw new Error(`the insert queued ${queuedCheck}, ${sent.length} message(s)`);
      const started = await step('provider start (hosted page)', () =>
        startCollection(created, 'redirect', via.method, via.phone, baseUrl),
      );
      const beforeCompletion = await imageOf(created.id);
      await step('completion (verified callback)', () =>
        completePayment({
          callbackId: `paid-${via.label}-${i}`,
          provider: via.method,
          providerReference: started.providerReference as string,
          paymentRequestId: created.id,
          outcome: 'success',
          payerPhone: via.phone,
        }),
      );
      await step('status poll (GET /payment_requests/{id})', () => paymentRequestOf(caller, created.id));
      // The table's stream carries the completion's change: its consumer queues the webhook, the
      // only way it leaves; the sender makes the delivery as it claims the first attempt.
      const change = { eventName: 'MODIFY', oldImage: beforeCompletion, newImage: await imageOf(created.id) };
      sent = [];
      const streamed = await step("webhook: stream dispatch (the completion's change)", () =>
        dispatchChange(change),
      );
      const [message] = sent;
      if (streamed !== 'queued' || !message) throw new Error(`the stream dispatch answered ${streamed}`);
      await step('webhook: one delivery (made, claimed, sent, recorded)', () => attemptDelivery(message, 1));
      // The expiry's check, 15 minutes on (SQS's longest delay): sent on, unread; then at
      // `expiresAt`, it finds the request paid.
      const expiryCheck = { paymentRequestId: created.id, checkAt: created.expiresAt };
      const expiresAt = Date.parse(created.expiresAt);
      const hop = await step('expiry: the check, 15 minutes on (sent on)', () =>
        checkExpiry(expiryCheck, new Date(expiresAt - 15 * 60_000)),
      );
      const last = await step('expiry: the check at expiresAt (paid: nothing to do)', () =>
        checkExpiry(expiryCheck, new Date(expiresAt + 1_000)),
      );
      if (hop !== 'not_due' || last !== 'ended_already')
        throw new Error(`the expiry checks said ${hop}, ${last}`);
    }
    await receiver.waitFor(paidPayments, 5_000);
  } finally {
    await receiver.close();
  }
  const shape: Record<string, Pick<PaidPaymentStep, 'lambda' | 'apiRequests' | 'sqsRequests' | 'extra'>> = {
    'create (POST /payment_requests)': { lambda: 'create-payment-request', apiRequests: 1, sqsRequests: 0 },
    'provider start (hosted page)': { lambda: 'submit-payment-page', apiRequests: 1, sqsRequests: 0 },
    'completion (verified callback)': { lambda: 'receive-provider-callback', apiRequests: 1, sqsRequests: 0 },
    // The stream's event source mapping invokes the consumer (reading the stream costs nothing),
    // whose SendMessage queues the webhook.
    "webhook: stream dispatch (the completion's change)": {
      lambda: 'dispatch-table-changes',
      apiRequests: 0,
      sqsRequests: 1,
    },
    // The event source mapping's ReceiveMessage (one per message at low volume, fewer in batches)
    // and DeleteMessage.
    'webhook: one delivery (made, claimed, sent, recorded)': {
      lambda: 'send-webhooks',
      apiRequests: 0,
      sqsRequests: 2,
    },
    // What expiry adds to a paid payment, with the default 30-minute life: the stream's consumer
    // (the insert's record, in a batch at volume) queues the check, which hops once at 15 minutes
    // (its receive, its send on, its delete) and is read at 30 (receive, delete). No write.
    "expiry: stream dispatch (the request's insert)": {
      lambda: 'dispatch-table-changes (insert)',
      apiRequests: 0,
      sqsRequests: 1,
    },
    'expiry: the check, 15 minutes on (sent on)': {
      lambda: 'expire-payment-requests (15 minutes on)',
      apiRequests: 0,
      sqsRequests: 3,
    },
    'expiry: the check at expiresAt (paid: nothing to do)': {
      lambda: 'expire-payment-requests (at expiry)',
      apiRequests: 0,
      sqsRequests: 2,
    },
    'status poll (GET /payment_requests/{id})': {
      lambda: 'get-payment-request',
      apiRequests: 1,
      sqsRequests: 0,
      extra: true,
    },
  };
  const steps = [...samples].map(
    ([name, runs]): PaidPaymentStep => ({
      step: name,
      readUnits: median(runs.map((r) => r.units.awsRead)),
      writeUnits: median(runs.map((r) => r.units.awsWrite)),
      requests: median(runs.map((r) => r.units.requests)),
      largestItemBytes: Math.max(...runs.map((r) => r.units.largestItemBytes)),
      medianMs: median(runs.map((r) => r.ms)),
      writes: runs.at(-1)?.units.writes ?? [],
      requestNames: runs.at(-1)?.units.calls.map((call) => call.command) ?? [],
      roundTrips: median(runs.map((r) => roundTrips(r.units.calls))),
      ...(shape[name] ?? { lambda: '?', apiRequests: 0, sqsRequests: 0 }),
    }),
  );
  const paying = steps.filter((s) => !s.extra);
  return {
    payments: paidPayments,
    steps,
    readUnits: Math.round(paying.reduce((sum, s) => sum + s.readUnits, 0) * 100) / 100,
    writeUnits: Math.round(paying.reduce((sum, s) => sum + s.writeUnits, 0) * 100) / 100,
  };
}
