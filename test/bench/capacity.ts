import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { queueUrlVariable } from '#shared/catalogue/queues.ts';
import type { Caller } from '#shared/domain/caller.ts';
import type { DeliveryMessage } from '#shared/operations/webhook-dispatch.ts';
import { type CapacityTotals, measureUnits, roundTrips, useBenchTable } from '#test/bench/bench-dynamodb.ts';
import { billOf } from '#test/bench/bill.ts';
import type { Bench } from '#test/bench/report.ts';
import { startWebhookReceiver } from '#test/support/webhook-receiver.ts';

export interface CapacityRow {
  operation: string;
  /** Capacity units DynamoDB Local reports (its figure for transactions is too low, see below). */
  reportedUnits: number;
  /** Read and write units on AWS by its pricing rules, from what the requests contained. */
  awsReadUnits: number;
  awsWriteUnits: number;
  requests: number;
  largestItemBytes: number;
}

/**
 * Read and write units of each data operation, as DynamoDB reports them (ReturnConsumedCapacity,
 * added to every request by a client middleware, so product code is measured unchanged).
 */
async function measureCapacity(): Promise<CapacityRow[]> {
  await useBenchTable('bench-capacity');
  process.env.AUTH_CACHE_TTL_SECONDS = '0';
  const { createBusiness } = await import('#shared/data/business.ts');
  const { createStore } = await import('#shared/data/store.ts');
  const { registerDevice } = await import('#shared/data/device.ts');
  const { createApiKey } = await import('#shared/data/api-key.ts');
  const { authenticate } = await import('#shared/http/authenticate.ts');
  const { balanceOf, devicesOf, storesOf } = await import('#shared/operations/stores.ts');

  const rows: CapacityRow[] = [];
  async function measure<T>(operation: string, run: () => Promise<T>): Promise<T> {
    const { result, units } = await measureUnits(run);
    rows.push({
      operation,
      reportedUnits: units.reported,
      awsReadUnits: units.awsRead,
      awsWriteUnits: units.awsWrite,
      requests: units.requests,
      largestItemBytes: units.largestItemBytes,
    });
    return result;
  }

  const { business, owner } = await measure('create business (with owner)', () =>
    createBusiness({
      name: 'Bench',
      apiAccessEnabled: true,
      isServiceProvider: false,
      verificationLevel: 1,
    }),
  );
  const store = await measure('create store (with wallets)', () =>
    createStore({ businessId: business.id, name: 'S' }),
  );
  await measure('register device', () =>
    registerDevice({ businessId: business.id, storeId: store.id, deviceId: 'bench-1' }),
  );
  const { apiKey, secret } = await measure('create API key', () =>
    createApiKey({ businessId: business.id, kind: 'merchant', memberId: owner.id, name: 'k' }),
  );
  const headers = { 'x-api-key-id': apiKey.id, 'x-api-key': secret };
  const caller = await measure('authenticate, container cache cold', () => authenticate(headers, 'api_key'));
  await measure('GET /stores (1 store)', () => storesOf(caller));
  await measure('GET /devices (1 device)', () => devicesOf(caller));
  await measure('GET /stores/{id}/balance', () => balanceOf(caller, store.id));

  process.env.SANDBOX = 'true';
  const { createPaymentRequestFor, paymentRequestOf, startCollection } = await import(
    '#shared/operations/payment-requests.ts'
  );
  const { completePayment } = await import('#shared/operations/complete-payment.ts');
  const baseUrl = 'http://localhost:0';
  const created = await measure('POST /payment_requests (redirect)', () =>
    createPaymentRequestFor(
      caller,
      {
        storeId: store.id,
        amountCents: 150_000,
        currency: 'XOF',
        reference: 'bench-1',
        paymentDetails: {
          type: 'redirect',
          data: {
            paymentMethod: 'wave',
            successUrl: 'https://a.example/ok',
            errorUrl: 'https://a.example/ko',
          },
        },
      },
      baseUrl,
    ),
  );
  await measure('GET /payment_requests/{id}', () => paymentRequestOf(caller, created.id));
  const started = await measure('start the provider flow (hosted page)', () =>
    startCollection(created, 'redirect', 'wave', '+2250700000001', baseUrl),
  );
  await measure('complete a payment (verified callback)', () =>
    completePayment({
      callbackId: 'bench',
      provider: 'wave',
      providerReference: started.providerReference as string,
      paymentRequestId: created.id,
      outcome: 'success',
      payerPhone: '+2250700000001',
    }),
  );
  await measure('duplicate callback (no change)', () =>
    completePayment({
      callbackId: 'bench-2',
      provider: 'wave',
      providerReference: started.providerReference as string,
      paymentRequestId: created.id,
      outcome: 'success',
    }),
  );

  // The same payment held in escrow (a platform key's), then released: what escrow adds.
  const { releaseEscrow } = await import('#shared/operations/escrows.ts');
  const { findEscrow } = await import('#shared/data/escrow.ts');
  const platform: Caller = { ...caller, keyKind: 'platform' };
  const inEscrow = await measure('POST /payment_requests (redirect, in escrow)', () =>
    createPaymentRequestFor(
      platform,
      {
        storeId: store.id,
        amountCents: 150_000,
        currency: 'XOF',
        reference: 'bench-escrow-1',
        escrow: { holdDays: 7, onExpiry: 'release' },
        paymentDetails: {
          type: 'redirect',
          data: {
            paymentMethod: 'wave',
            successUrl: 'https://a.example/ok',
            errorUrl: 'https://a.example/ko',
          },
        },
      },
      baseUrl,
    ),
  );
  const escrowStarted = await startCollection(inEscrow, 'redirect', 'wave', '+2250700000001', baseUrl);
  await measure('complete a payment held in escrow (verified callback)', () =>
    completePayment({
      callbackId: 'bench-escrow',
      provider: 'wave',
      providerReference: escrowStarted.providerReference as string,
      paymentRequestId: inEscrow.id,
      outcome: 'success',
      payerPhone: '+2250700000001',
    }),
  );
  const heldEscrow = await findEscrow(inEscrow.escrow?.id as string, true);
  if (!heldEscrow) throw new Error('the escrow of the bench payment is missing');
  await measure('POST /escrows/{id}/release (ledger, record, event)', () => releaseEscrow(heldEscrow));

  // Payment links: switching one off and on, and the list, whose reads grow with the business's links.
  const links = await import('#shared/operations/payment-links.ts');
  const linkBody = { storeId: store.id, title: 'Bench payment link', amountCents: 50_000 };
  const link = await measure('POST /payment_links', () => links.createPaymentLinkFor(caller, linkBody));
  await measure('GET /payment_links/{id}', () => links.paymentLinkOf(caller, link.id));
  await measure('POST /payment_links/{id}/deactivate', () =>
    links.setPaymentLinkActiveFor(caller, link.id, false),
  );
  await measure('POST /payment_links/{id}/activate', () =>
    links.setPaymentLinkActiveFor(caller, link.id, true),
  );
  await measure('GET /payment_links (1 link)', () => links.paymentLinksOf(caller, { page: 1, limit: 100 }));
  for (let made = 1; made < 100; made++) await links.createPaymentLinkFor(caller, linkBody);
  await measure('GET /payment_links (100 links, page of 20)', () =>
    links.paymentLinksOf(caller, { page: 1, limit: 20 }),
  );
  await measure('GET /payment_links (100 links, one store, active)', () =>
    links.paymentLinksOf(caller, { storeId: store.id, active: true, page: 1, limit: 20 }),
  );

  const { creditStore } = await import('#shared/operations/credit.ts');
  const { createTransferFor, transferOf } = await import('#shared/operations/transfers.ts');
  const { completeTransfer } = await import('#shared/operations/complete-transfer.ts');
  const { createTransferBody } = await import('#shared/api/transfers.ts');
  const annexe = await createStore({ businessId: business.id, name: 'Annexe' });
  await creditStore(store.id, 10_000_000);
  // The sandbox's "no callback" number: the bench plays the provider's callback itself.
  const payoutBody = createTransferBody.parse({
    storeId: store.id,
    amountCents: 100_000,
    currency: 'XOF',
    name: 'Fournisseur',
    paymentMethod: 'orange',
    identifier: { number: '+2250700000004' },
  });
  await measure('POST /transfers (payout, new hidden contact)', () =>
    createTransferFor(caller, payoutBody, baseUrl),
  );
  const transfer = await measure('POST /transfers (payout, known beneficiary)', () =>
    createTransferFor(caller, payoutBody, baseUrl),
  );
  await measure('GET /transfers/{id}', () => transferOf(caller, transfer.id));
  const payoutCallback = {
    callbackId: 'bench',
    method: 'orange' as const,
    providerReference: transfer.providerReference as string,
    transferId: transfer.id,
    outcome: 'success' as const,
  };
  await measure('complete a transfer (verified payout callback)', () => completeTransfer(payoutCallback));
  await measure('duplicate payout callback (no change)', () => completeTransfer(payoutCallback));
  await measure('POST /transfers (svc, between two stores)', () =>
    createTransferFor(
      caller,
      createTransferBody.parse({
        storeId: store.id,
        amountCents: 100_000,
        currency: 'XOF',
        paymentMethod: 'svc',
        destinationStoreId: annexe.id,
      }),
      baseUrl,
    ),
  );
  await measureRefunds(measure, caller, store.id, baseUrl);
  paidPayment = await measurePaidPayments(caller, store.id, business.id, baseUrl);
  for (const step of paidPayment.steps.filter((s) => !s.extra)) {
    rows.push({
      operation: `paid payment: ${step.step}`,
      reportedUnits: 0,
      awsReadUnits: step.readUnits,
      awsWriteUnits: step.writeUnits,
      requests: step.requests,
      largestItemBytes: step.largestItemBytes,
    });
  }
  rows.push({
    operation: 'whole paid payment (the steps above)',
    reportedUnits: 0,
    awsReadUnits: paidPayment.readUnits,
    awsWriteUnits: paidPayment.writeUnits,
    requests: paidPayment.steps.reduce((sum, step) => sum + step.requests, 0),
    largestItemBytes: Math.max(...paidPayment.steps.map((step) => step.largestItemBytes)),
  });
  // What ends a request unpaid costs: none of it is on a paid payment's path.
  process.env.PAYMENT_REQUEST_MIN_LIFETIME_SECONDS = '1';
  const { checkExpiry } = await import('#shared/operations/payment-expiry.ts');
  const { cancelPaymentRequestFor } = await import('#shared/operations/end-payment.ts');
  const unpaidBody = (reference: string, expiresAt?: string) => ({
    storeId: store.id,
    amountCents: 150_000,
    currency: 'XOF',
    reference,
    ...(expiresAt ? { expiresAt } : {}),
    paymentDetails: {
      type: 'redirect' as const,
      data: {
        paymentMethod: 'wave' as const,
        successUrl: 'https://a.example/ok',
        errorUrl: 'https://a.example/ko',
      },
    },
  });
  const expiring = await createPaymentRequestFor(
    caller,
    unpaidBody('bench-expiring', new Date(Date.now() + 1_100).toISOString()),
    baseUrl,
  );
  await new Promise((resolve) => setTimeout(resolve, 1_200));
  await measure('expiry: end an unpaid request at expiresAt (record, counter, event)', async () => {
    const outcome = await checkExpiry({ paymentRequestId: expiring.id, checkAt: expiring.expiresAt });
    if (outcome !== 'expired') throw new Error(`the expiry check said ${outcome}`);
  });
  const cancellable = await createPaymentRequestFor(caller, unpaidBody('bench-cancel'), baseUrl);
  await measure('POST /payment_requests/{id}/cancel (record, counter, event)', () =>
    cancelPaymentRequestFor(caller, cancellable.id),
  );
  const retried = await createPaymentRequestFor(caller, unpaidBody('bench-retry'), baseUrl);
  const declined = await startCollection(retried, 'redirect', 'wave', '+2250700000002', baseUrl);
  await measure('a declined attempt on the hosted page (the request stays open)', () =>
    completePayment({
      callbackId: 'bench-declined',
      provider: 'wave',
      providerReference: declined.providerReference as string,
      paymentRequestId: retried.id,
      outcome: 'declined',
    }),
  );
  const poll = paidPayment.steps.find((s) => s.extra);
  rows.push({
    operation: 'each extra status poll',
    reportedUnits: 0,
    awsReadUnits: poll?.readUnits ?? 0,
    awsWriteUnits: 0,
    requests: poll?.requests ?? 0,
    largestItemBytes: 0,
  });
  // SMS: the data operations of a send, its delivery and a refund (the queue hops are SQS's, not DynamoDB's).
  const messages = await import('#shared/data/message.ts');
  const { countSegments } = await import('#shared/domain/sms-segments.ts');
  await measure('credit-sms (first top-up, makes the account)', () =>
    messages.creditSms(business.id, 100, 'bench-topup'),
  );
  await measure('GET /messages/account', () => messages.getOrCreateAccount(business.id));
  const smsOf = (reference: string) => {
    const body = 'Reçu bench : 1 500 F CFA payés. Merci !';
    const now = new Date().toISOString();
    return {
      id: crypto.randomUUID(),
      businessId: business.id,
      channel: 'sms' as const,
      to: '+2250700000001',
      body,
      reference,
      status: 'pending' as const,
      failedReason: null,
      ...countSegments(body),
      charged: true,
      createdAt: now,
      updatedAt: now,
    };
  };
  const delivered = smsOf('bench-sms-1');
  await measure('POST /messages (record, debit the segments)', () => messages.createMessage(delivered));
  await measure('sender: read the message (consistent)', () =>
    messages.getMessage(business.id, delivered.id, true),
  );
  await measure('sender: mark sent', () => messages.markSent(delivered, 'bench-provider-1'));
  await measure('delivery event: mark delivered', () =>
    messages.recordCarrierOutcome(delivered, { status: 'delivered' }),
  );
  const refused = smsOf('bench-sms-2');
  await messages.createMessage(refused);
  await measure('refused before the carrier: fail and refund', () =>
    messages.failBeforeCarrier(refused, 'invalid_number'),
  );
  return rows;
}

type Measure = <T>(operation: string, run: () => Promise<T>) => Promise<T>;

/**
 * A refund's units: a part of a payment paid back by payout (Orange has no refund of its own),
 * and the whole of one refunded by its provider (MTN's refund), each recorded then settled by its
 * callback. The payer is the sandbox's silent number, so the bench plays the provider's answer;
 * the sandbox's own record of the payout (1 WCU, and 1 for its reference on the refund) is
 * counted in the create, as a live provider's call would not be.
 */
async function measureRefunds(measure: Measure, caller: Caller, storeId: string, baseUrl: string) {
  const { createRefundFor, refundOf, refundsOf } = await import('#shared/operations/refunds.ts');
  const { completeRefund } = await import('#shared/operations/complete-refund.ts');
  const { paidPayment } = await import('#test/support/fixtures.ts');
  const paid = (provider: 'orange' | 'mtn', reference: string) =>
    paidPayment(
      caller,
      storeId,
      { amountCents: 150_000, provider, payerPhone: '+2250700000004', reference },
      baseUrl,
    );
  const settle = (refund: {
    id: string;
    paymentMethod: 'orange' | 'mtn' | string;
    providerReference?: string;
  }) =>
    completeRefund({
      callbackId: `bench-${refund.id}`,
      method: refund.paymentMethod as 'orange',
      providerReference: refund.providerReference as string,
      transferId: refund.id,
      outcome: 'success',
    });
  const byPayout = await paid('orange', 'bench-refund-1');
  const part = await measure('POST /refunds (a part, paid out)', () =>
    createRefundFor(
      caller,
      { paymentRequestId: byPayout, amountCents: 50_000, reference: 'bench-r-1' },
      baseUrl,
    ),
  );
  await measure('GET /refunds/{id}', () => refundOf(caller, part.id));
  await measure('complete a refund (verified payout callback)', () => settle(part));
  await measure('duplicate refund callback (no change)', () => settle(part));
  await measure('POST /refunds (the rest, paid out)', () =>
    createRefundFor(caller, { paymentRequestId: byPayout, reference: 'bench-r-2' }, baseUrl),
  );
  const byRefund = await paid('mtn', 'bench-refund-2');
  const whole = await measure("POST /refunds (whole, the provider's own refund)", () =>
    createRefundFor(caller, { paymentRequestId: byRefund, reference: 'bench-r-3' }, baseUrl),
  );
  await measure("complete a refund (the provider's own refund)", () => settle(whole));
  await measure('GET /refunds?paymentRequestId= (2 refunds)', () =>
    refundsOf(caller, { paymentRequestId: byPayout, page: 1, limit: 100 }),
  );
  await measure('GET /refunds (the business, 1 store, 3 refunds)', () =>
    refundsOf(caller, { page: 1, limit: 100 }),
  );
}

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

let paidPayment: PaidPayment | undefined;
const paidPayments = 15;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/**
 * Everything a paid payment writes and reads, end to end, `paidPayments` times: create (API), the
 * provider flow started from the hosted page, the verified callback completing it, the dispatch of
 * its TRANSACTION_COMPLETED event (in the callback's function, as in production) and one delivery
 * to a receiver answering 200. SQS is not called: its requests are counted by a middleware that
 * answers in its place, since what is measured here is DynamoDB and time.
 */
async function measurePaidPayments(
  caller: Caller,
  storeId: string,
  businessId: string,
  baseUrl: string,
): Promise<PaidPayment> {
  process.env.WEBHOOKS_ALLOW_LOOPBACK = 'true';
  process.env[queueUrlVariable('webhooks')] = 'https://sqs.bench.invalid/000000000000/webhooks';
  process.env[queueUrlVariable('paymentExpiry')] = 'https://sqs.bench.invalid/000000000000/paymentExpiry';
  const { sqs } = await import('#shared/aws/sqs.ts');
  let sent: DeliveryMessage[] = [];
  sqs.middlewareStack.add(
    () => async (args) => {
      sent.push(JSON.parse((args.input as { MessageBody: string }).MessageBody) as DeliveryMessage);
      return { output: { MessageId: randomUUID(), $metadata: {} }, response: {} } as never;
    },
    { step: 'initialize', name: 'benchSqsCounter' },
  );
  const receiver = await startWebhookReceiver();
  // Subscriptions keep their signing secret encrypted: the local KMS stand-in encrypts it here.
  const { startKmsStandIn, localWebhookSecretsKeyId, newLocalKeyMaterial } = await import(
    '#infra/local/kms.ts'
  );
  const kms = await startKmsStandIn({ keyMaterial: newLocalKeyMaterial() });
  process.env.AWS_ENDPOINT_URL_KMS = kms.endpoint;
  process.env.WEBHOOK_SECRETS_KEY_ID = localWebhookSecretsKeyId;
  const { saveSubscription } = await import('#shared/data/webhook-subscription.ts');
  await saveSubscription({ businessId, url: receiver.url, name: 'bench', events: [] }, { replace: true });
  const { createPaymentRequestFor, paymentRequestOf, startCollection } = await import(
    '#shared/operations/payment-requests.ts'
  );
  const { completePayment } = await import('#shared/operations/complete-payment.ts');
  const { dispatchPromptly } = await import('#shared/operations/webhook-dispatch.ts');
  const { dispatchChange } = await import('#shared/operations/stream-dispatch.ts');
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
          {
            storeId,
            amountCents: 150_000,
            currency: 'XOF',
            reference: `paid-${i}`,
            paymentDetails: {
              type: 'redirect',
              data: {
                paymentMethod: 'wave',
                successUrl: 'https://a.example/ok',
                errorUrl: 'https://a.example/ko',
              },
            },
          },
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
        startCollection(created, 'redirect', 'wave', '+2250700000001', baseUrl),
      );
      const beforeCompletion = await imageOf(created.id);
      const completion = await step('completion (verified callback)', () =>
        completePayment({
          callbackId: `paid-${i}`,
          provider: 'wave',
          providerReference: started.providerReference as string,
          paymentRequestId: created.id,
          outcome: 'success',
          payerPhone: '+2250700000001',
        }),
      );
      await step('status poll (GET /payment_requests/{id})', () => paymentRequestOf(caller, created.id));
      sent = [];
      await step('webhook dispatch', () => dispatchPromptly(completion.events));
      const [message] = sent;
      if (!message) throw new Error('the dispatch queued nothing');
      // The stream consumer gets the completion's change at about the time of the prompt dispatch,
      // before the delivery's first attempt as a rule: it finds the delivery made, never attempted,
      // and queues a check for 15 minutes on.
      const change = { eventName: 'MODIFY', oldImage: beforeCompletion, newImage: await imageOf(created.id) };
      sent = [];
      const streamed = await step("stream dispatch (the completion's change)", () => dispatchChange(change));
      if (streamed !== 'recovery_queued') throw new Error(`the stream dispatch answered ${streamed}`);
      const [check] = sent;
      if (!check?.ifNeverAttempted) throw new Error('the stream dispatch queued no check');
      await step('one webhook delivery', () => attemptDelivery(message, 1));
      const checked = await step('the check, 15 minutes on (dropped)', () => attemptDelivery(check, 1));
      if (!checked.done) throw new Error('the check was not dropped');
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
    await kms.stop();
  }
  const shape: Record<string, Pick<PaidPaymentStep, 'lambda' | 'apiRequests' | 'sqsRequests' | 'extra'>> = {
    'create (POST /payment_requests)': { lambda: 'create-payment-request', apiRequests: 1, sqsRequests: 0 },
    'provider start (hosted page)': { lambda: 'submit-payment-page', apiRequests: 1, sqsRequests: 0 },
    'completion (verified callback)': { lambda: 'receive-provider-callback', apiRequests: 1, sqsRequests: 0 },
    // SendMessage in the callback's function.
    'webhook dispatch': { lambda: 'receive-provider-callback', apiRequests: 0, sqsRequests: 1 },
    // The event source mapping's ReceiveMessage (one per message at low volume, fewer in batches)
    // and DeleteMessage.
    'one webhook delivery': { lambda: 'send-webhooks', apiRequests: 0, sqsRequests: 2 },
    // The stream's event source mapping invokes the consumer (reading the stream costs nothing),
    // whose SendMessage queues the check.
    "stream dispatch (the completion's change)": {
      lambda: 'dispatch-table-changes',
      apiRequests: 0,
      sqsRequests: 1,
    },
    // The check's ReceiveMessage and DeleteMessage.
    // An invocation of its own, counted as one although checks arrive in batches like deliveries.
    'the check, 15 minutes on (dropped)': {
      lambda: 'send-webhooks (check)',
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

export const capacity: Bench = async () => {
  const rows = await measureCapacity();
  return {
    name: 'capacity',
    title:
      'DynamoDB units per operation (reads as reported by DynamoDB Local; transactional writes by AWS pricing rules)',
    columns: ['operation', 'requests', 'read units', 'write units', 'largest item (bytes)'],
    rows: rows.map((r) => [r.operation, r.requests, r.awsReadUnits, r.awsWriteUnits, r.largestItemBytes]),
    data: rows,
  };
};

/** The paid payment `capacity` measured (measured now if it has not run). */
export async function measuredPaidPayment(): Promise<PaidPayment> {
  if (!paidPayment) await measureCapacity();
  return paidPayment as PaidPayment;
}

/** The bill of a paid payment at AWS list prices, from the figures `capacity` measured. */
export const capacityBill: Bench = async () => {
  const bill = billOf(await measuredPaidPayment());
  return {
    name: 'capacity-bill',
    title: `Cost of a paid payment on AWS at list price (${bill.region}), per million payments, by service`,
    columns: [
      'service',
      'what a paid payment uses',
      'USD per million payments',
      'USD per million extra status polls',
    ],
    rows: bill.lines.map((line) => [line.service, line.usage, line.perMillionPayments, line.perMillionPolls]),
    data: { ...bill, paidPayment },
  };
};
