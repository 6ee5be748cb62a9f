import { measureUnits, useBenchTable } from '#test/bench/bench-dynamodb.ts';
import type { Bench } from '#test/bench/report.ts';

export interface CapacityRow {
  operation: string;
  /** Capacity units DynamoDB Local reports (its figure for transactions is too low, see below). */
  reportedUnits: number;
  /** Read and write units on AWS by its pricing rules, from what the requests contained. */
  awsReadUnits: number;
  awsWriteUnits: number;
  requests: number;
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

export const capacity: Bench = async () => {
  const rows = await measureCapacity();
  return {
    name: 'capacity',
    title:
      'DynamoDB units per operation (reads as reported by DynamoDB Local; transactional writes by AWS pricing rules)',
    columns: ['operation', 'requests', 'read units', 'write units', 'units DynamoDB Local reported'],
    rows: rows.map((r) => [r.operation, r.requests, r.awsReadUnits, r.awsWriteUnits, r.reportedUnits]),
    data: rows,
  };
};
