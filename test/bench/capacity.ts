import { randomUUID } from 'node:crypto';
import type { Caller } from '#shared/domain/caller.ts';
import { measureUnits, useBenchTable } from '#test/bench/bench-dynamodb.ts';
import { billOf } from '#test/bench/bill.ts';
import { measurePaidPayments, type PaidPayment } from '#test/bench/paid-payment.ts';
import type { Bench } from '#test/bench/report.ts';
import { redirectRequestBody } from '#test/support/payment-request-body.ts';

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
  const { completePayment } = await import('#shared/settlement/collections.ts');
  const baseUrl = 'http://localhost:0';
  const created = await measure('POST /payment_requests (redirect)', () =>
    createPaymentRequestFor(caller, redirectRequestBody(store.id, { reference: 'bench-1' }), baseUrl),
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
      redirectRequestBody(store.id, {
        reference: 'bench-escrow-1',
        escrow: { holdDays: 7, onExpiry: 'release' },
      }),
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
  const { settlePayout } = await import('#shared/settlement/payouts.ts');
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
  const payoutReport = {
    payoutId: transfer.id,
    providerReference: transfer.providerReference as string,
    outcome: 'success' as const,
  };
  await measure('complete a transfer (verified payout callback)', () => settlePayout(payoutReport));
  await measure('duplicate payout callback (no change)', () => settlePayout(payoutReport));
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
  // Withdrawals (issue 34): a transfer to the business's own account, and SMS credit bought.
  const payoutAccounts = await import('#shared/operations/payout-accounts.ts');
  const { buySmsCredit } = await import('#shared/operations/sms-credit.ts');
  const account = await measure('POST /payout_accounts (account, claim, audit entry)', () =>
    payoutAccounts.addPayoutAccount(
      business.id,
      { paymentMethod: 'orange', identifier: { number: '+2250700000004' }, holder: 'Propriétaire' },
      { keyId: caller.keyId },
      'bench',
      new Date(Date.now() - 2 * 86_400_000),
    ),
  );
  await measure('POST /withdrawals (a transfer to it)', () =>
    payoutAccounts.withdraw(
      caller,
      { storeId: store.id, payoutAccountId: account.id, amountCents: 100_000 },
      baseUrl,
    ),
  );
  await measure('POST /sms_credit_purchases (100 segments, one transaction)', () =>
    buySmsCredit(caller, { storeId: store.id, segments: 100 }, { actor: {}, sourceIp: 'bench' }),
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
  // The same paid payment through pawaPay (Orange Money in Côte d'Ivoire), its contract fake
  // answering over HTTP: its deposit id is recorded before the call, and it is polled until paid.
  pawapayPayment = await measureThroughPawapay(caller, store.id, business.id, baseUrl);
  const pawapay = pawapayPayment;
  rows.push({
    operation: 'whole paid payment through pawaPay (Orange Money)',
    reportedUnits: 0,
    awsReadUnits: pawapay.readUnits,
    awsWriteUnits: pawapay.writeUnits,
    requests: pawapay.steps.reduce((sum, step) => sum + step.requests, 0),
    largestItemBytes: Math.max(...pawapay.steps.map((step) => step.largestItemBytes)),
  });
  // What ends a request unpaid costs: none of it is on a paid payment's path.
  process.env.PAYMENT_REQUEST_MIN_LIFETIME_SECONDS = '1';
  const { checkExpiry } = await import('#shared/operations/payment-expiry.ts');
  const { cancelPaymentRequestFor } = await import('#shared/operations/end-payment.ts');
  const unpaidBody = (reference: string, expiresAt?: string) =>
    redirectRequestBody(store.id, { reference, ...(expiresAt ? { expiresAt } : {}) });
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
  const { settlePayout } = await import('#shared/settlement/payouts.ts');
  const { paidPayment } = await import('#test/support/fixtures.ts');
  const paid = (provider: 'orange' | 'mtn', reference: string) =>
    paidPayment(
      caller,
      storeId,
      { amountCents: 150_000, provider, payerPhone: '+2250700000004', reference },
      baseUrl,
    );
  const settle = (refund: { id: string; providerReference?: string | undefined }) =>
    settlePayout({
      payoutId: refund.id,
      providerReference: refund.providerReference as string,
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

let paidPayment: PaidPayment | undefined;
let pawapayPayment: PaidPayment | undefined;

async function measureThroughPawapay(
  caller: Caller,
  storeId: string,
  businessId: string,
  baseUrl: string,
): Promise<PaidPayment> {
  const { startPawapayFake } = await import('#test/fakes/pawapay-fake.ts');
  const apiToken = randomUUID();
  // Slow to settle: the bench completes each payment itself, as its verified callback would.
  const fake = await startPawapayFake({ apiToken, answerDelayMs: 600_000 });
  const routes = process.env.PROVIDER_ROUTES;
  process.env.PROVIDER_ROUTES = JSON.stringify({ orange: 'pawapay' });
  process.env.PAWAPAY_BASE_URL = fake.url;
  process.env.PAWAPAY_PROVIDER_SECRET = JSON.stringify({ apiToken });
  try {
    return await measurePaidPayments(caller, storeId, businessId, baseUrl, {
      method: 'orange',
      phone: '+2250700000789',
      label: 'pawapay',
    });
  } finally {
    if (routes === undefined) delete process.env.PROVIDER_ROUTES;
    else process.env.PROVIDER_ROUTES = routes;
    await fake.close();
  }
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

/** The paid payment through pawaPay `capacity` measured (measured now if it has not run). */
export async function measuredPawapayPayment(): Promise<PaidPayment> {
  if (!pawapayPayment) await measureCapacity();
  return pawapayPayment as PaidPayment;
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
