import { randomUUID } from 'node:crypto';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditLedger } from '#shared/audit/ledger-audit.ts';
import { documentClient, tableName } from '#shared/aws/dynamodb.ts';
import { getOrphanCollection, orphanIdOf } from '#shared/data/orphan-collection.ts';
import { getPaymentRequest, type PaymentRequest } from '#shared/data/payment-request.ts';
import { defaultFeeSchedule, splitFee } from '#shared/domain/fees.ts';
import { createPaymentLinkFor, payThroughLink } from '#shared/operations/payment-links.ts';
import { createPaymentRequestFor, startCollection } from '#shared/operations/payment-requests.ts';
import type { CollectionOutcome, VerifiedCallback } from '#shared/providers/port.ts';
import { completePayment } from '#shared/settlement/collections.ts';
import { merchant, operatingWallet } from '#test/support/fixtures.ts';
import { eventsAnnouncedFor } from '#test/support/table-stream.ts';

const baseUrl = 'http://localhost:0';

beforeAll(() => {
  process.env.SANDBOX = 'true';
});

type Merchant = Awaited<ReturnType<typeof merchant>>;

/**
 * A redirect request whose collection was started on the hosted page (provider: wave), or a
 * soundbox request, whose QR is its one collection (one attempt, as in direct mode).
 */
async function startedRequest(
  m: Merchant,
  amountCents = 150_000,
  type: 'redirect' | 'soundbox' = 'redirect',
): Promise<PaymentRequest> {
  const request = await createPaymentRequestFor(
    m.caller,
    {
      storeId: m.store.id,
      amountCents,
      currency: 'XOF',
      reference: `ref-${randomUUID()}`,
      paymentDetails:
        type === 'redirect'
          ? {
              type,
              data: {
                paymentMethod: 'wave',
                successUrl: 'https://shop.example/ok',
                errorUrl: 'myapp://failed',
              },
            }
          : { type, data: { paymentMethod: 'wave', deviceId: m.device.id } },
    },
    baseUrl,
  );
  return type === 'redirect'
    ? startCollection(request, 'redirect', 'wave', '+2250700000001', baseUrl)
    : request;
}

function callback(request: PaymentRequest, outcome: CollectionOutcome): VerifiedCallback {
  return {
    callbackId: randomUUID(),
    provider: 'wave',
    providerReference: request.providerReference as string,
    paymentRequestId: request.id,
    outcome,
    payerPhone: '+2250700000001',
    payerName: 'Awa K.',
  };
}

/** The events the table's stream announces for a request, from its changes (no event item is written). */
const streamedEvents = (requestId: string) => eventsAnnouncedFor(`PAYREQ#${requestId}`);

describe('completing a payment', () => {
  it('credits the store amount less the fee, the fee account the fee, and reports it once', async () => {
    const m = await merchant();
    const request = await startedRequest(m, 150_000);
    const completion = await completePayment(callback(request, 'success'));
    expect(completion.result).toBe('completed');

    const { fee, net } = splitFee(150_000, defaultFeeSchedule.wave);
    expect(fee).toBe(1_500);
    expect((await operatingWallet(m.business.id, m.store.id)).total).toBe(net);

    const completed = (await getPaymentRequest(m.business.id, request.id)) as PaymentRequest;
    expect(completed.status).toBe('success');
    expect(completed.errorReason).toBeNull();
    expect(completed.transaction).toMatchObject({
      amount: { amount: 150_000, currency: 'XOF' },
      fees: { amount: 1_500, currency: 'XOF' },
      status: 'success',
      counterpartLabel: 'Awa K.',
      counterpartIdentifier: '+2250700000001',
    });
    expect(completed.transaction?.executedAt).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);

    // One change of the request announces the completion.
    const events = await streamedEvents(request.id);
    expect(events).toHaveLength(1);
    const event = events[0];
    expect(event?.name).toBe('TRANSACTION_COMPLETED');
    expect(event?.id).toBe(`TRANSACTION_COMPLETED:${completed.transaction?.id}`);
    expect(event?.body).toEqual({
      id: completed.transaction?.id,
      amount: { amount: 150_000, currency: 'XOF' },
      fees: { amount: 1_500, currency: 'XOF' },
      status: 'success',
      counterpartLabel: 'Awa K.',
      counterpartIdentifier: '+2250700000001',
      paymentMethod: 'wave',
      transactionType: 'payment',
      businessName: m.business.name,
      storeName: m.store.name,
      storeId: m.store.id,
      description: `Payment ${request.reference}`,
      executedAt: completed.transaction?.executedAt,
      transactionDetails: { id: request.id, reference: request.reference },
    });

    const day = completed.transaction?.executedAt.slice(0, 10);
    const { Items: records = [] } = await documentClient.send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': `TXDAY#${m.business.id}#${day}` },
      }),
    );
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      type: 'payment',
      status: 'success',
      paymentRequestId: request.id,
      reference: request.reference,
    });
    expect((await auditLedger()).breaks).toEqual([]);
  });

  it('names the payment link in the completion event of a payment made through one', async () => {
    const m = await merchant();
    const link = await createPaymentLinkFor(m.caller, {
      storeId: m.store.id,
      title: 'Panier du marché',
      amountCents: 25_000,
    });
    const { request } = await payThroughLink(
      link.id,
      { paymentMethod: 'wave', payerPhone: '+2250700000001' },
      baseUrl,
    );
    expect((await completePayment(callback(request, 'success'))).result).toBe('completed');
    const [event] = await streamedEvents(request.id);
    expect(event?.body.transactionDetails).toEqual({
      id: request.id,
      reference: request.reference,
      paymentLinkId: link.id,
    });
  });

  it('moves no money for a declined payment, but reports it', async () => {
    const m = await merchant();
    const request = await startedRequest(m, 150_000, 'soundbox');
    expect((await completePayment(callback(request, 'declined'))).result).toBe('completed');
    const completed = (await getPaymentRequest(m.business.id, request.id)) as PaymentRequest;
    expect(completed).toMatchObject({ status: 'error', errorReason: 'declined' });
    expect(completed.transaction).toMatchObject({ status: 'error', fees: { amount: 0, currency: 'XOF' } });
    expect((await operatingWallet(m.business.id, m.store.id)).total).toBe(0);
    expect(await streamedEvents(request.id)).toMatchObject([{ body: { status: 'error' } }]);
  });

  it('posts once when the callback is delivered twice, one after the other or at the same time', async () => {
    const m = await merchant();
    const first = await startedRequest(m, 10_000);
    expect((await completePayment(callback(first, 'success'))).result).toBe('completed');
    expect((await completePayment(callback(first, 'success'))).result).toBe('already_completed');

    const second = await startedRequest(m, 10_000);
    const results = await Promise.all(
      Array.from({ length: 5 }, () => completePayment(callback(second, 'success'))),
    );
    expect(results.filter((r) => r.result === 'completed')).toHaveLength(1);
    expect(await streamedEvents(second.id)).toHaveLength(1);
    const { net } = splitFee(10_000, defaultFeeSchedule.wave);
    expect((await operatingWallet(m.business.id, m.store.id)).total).toBe(2 * net);
    expect((await auditLedger()).breaks).toEqual([]);
  });

  it('keeps a request paid on the hosted page open after a declined attempt, then completes it with the next', async () => {
    const m = await merchant();
    const request = await startedRequest(m);
    expect((await completePayment(callback(request, 'declined'))).result).toBe('attempt_failed');
    const declined = (await getPaymentRequest(m.business.id, request.id, true)) as PaymentRequest;
    expect(declined).toMatchObject({ status: 'pending', errorReason: null, attemptError: 'declined' });
    // Nothing ended: no event.
    expect(await streamedEvents(request.id)).toEqual([]);

    const second = await startCollection(declined, 'redirect', 'orange', '+2250700000017', baseUrl);
    expect(second.providerReference).not.toBe(request.providerReference);
    expect((await completePayment({ ...callback(second, 'success'), provider: 'orange' })).result).toBe(
      'completed',
    );
    const paid = (await getPaymentRequest(m.business.id, request.id, true)) as PaymentRequest;
    expect(paid).toMatchObject({ status: 'success', attemptError: undefined, collectionMethod: 'orange' });
    // The declined collection reporting success after all is the payer's money: refunded, not credited.
    expect((await completePayment(callback(request, 'success'))).result).toBe('orphan_collection');
    const { net } = splitFee(150_000, defaultFeeSchedule.orange);
    expect((await operatingWallet(m.business.id, m.store.id)).total).toBe(net);
    expect((await auditLedger()).breaks).toEqual([]);
  });

  it('ignores a late callback after a terminal state', async () => {
    const m = await merchant();
    const request = await startedRequest(m, 150_000, 'soundbox');
    await completePayment(callback(request, 'declined'));
    expect((await completePayment(callback(request, 'success'))).result).toBe('already_completed');
    expect((await getPaymentRequest(m.business.id, request.id))?.status).toBe('error');
    expect((await operatingWallet(m.business.id, m.store.id)).total).toBe(0);
  });

  it('does not complete a request with a collection it has not recorded, and asks for it again', async () => {
    const m = await merchant();
    const request = await startedRequest(m);
    const stale = { ...callback(request, 'success'), providerReference: 'sbx_not-this-one' };
    await expect(completePayment(stale)).rejects.toMatchObject({ id: 'conflict' });
    expect((await completePayment({ ...stale, outcome: 'declined' })).result).toBe('wrong_collection');
    expect((await getPaymentRequest(m.business.id, request.id))?.status).toBe('pending');
  });

  it('lets only as many concurrent payments through as the monthly ceiling allows', async () => {
    process.env.COLLECTION_CEILINGS = JSON.stringify({ 2: 25_000 });
    try {
      const m = await merchant({ verificationLevel: 2 });
      const requests = [
        await startedRequest(m, 10_000),
        await startedRequest(m, 10_000),
        await startedRequest(m, 10_000),
      ];
      await Promise.all(requests.map((r) => completePayment(callback(r, 'success'))));
      const final = await Promise.all(requests.map((r) => getPaymentRequest(m.business.id, r.id)));
      expect(final.filter((r) => r?.status === 'success')).toHaveLength(2);
      const refused = final.filter((r) => r?.errorReason === 'collection_ceiling_exceeded');
      expect(refused).toHaveLength(1);
      const { net } = splitFee(10_000, defaultFeeSchedule.wave);
      expect((await operatingWallet(m.business.id, m.store.id)).total).toBe(2 * net);
      // The provider did collect the refused one: that money is the payer's, paid back once,
      // however many times the provider reports it.
      const refusedRequest = refused[0] as PaymentRequest;
      const orphanId = orphanIdOf('wave', refusedRequest.providerReference as string);
      expect(await getOrphanCollection(orphanId)).toMatchObject({
        paymentRequestId: refusedRequest.id,
        amountCents: 10_000,
        payerPhone: '+2250700000001',
      });
      expect((await completePayment(callback(refusedRequest, 'success'))).result).toBe('already_completed');
      expect((await operatingWallet(m.business.id, m.store.id)).total).toBe(2 * net);
      expect((await auditLedger()).breaks).toEqual([]);
    } finally {
      delete process.env.COLLECTION_CEILINGS;
    }
  });

  it('keeps the books right through random payments with duplicate, late and concurrent callbacks (property)', async () => {
    const m = await merchant({ verificationLevel: 3 });
    const payment = fc.record({
      amount: fc.integer({ min: 100, max: 5_000_000 }),
      outcome: fc.constantFrom<CollectionOutcome>('success', 'success', 'declined', 'insufficient_funds'),
      duplicates: fc.integer({ min: 0, max: 3 }),
      late: fc.option(fc.constantFrom<CollectionOutcome>('success', 'declined'), { nil: undefined }),
    });
    let expected = (await operatingWallet(m.business.id, m.store.id)).total;
    await fc.assert(
      fc.asyncProperty(fc.array(payment, { minLength: 1, maxLength: 4 }), async (payments) => {
        // Soundbox requests: one attempt, so a failure ends them (the page's retries are above).
        const started = await Promise.all(payments.map((p) => startedRequest(m, p.amount, 'soundbox')));
        // Every payment's callbacks, and their duplicates, arrive at the same time.
        await Promise.all(
          payments.flatMap((p, i) =>
            Array.from({ length: 1 + p.duplicates }, () =>
              completePayment(callback(started[i] as PaymentRequest, p.outcome)),
            ),
          ),
        );
        // Then late callbacks, with any outcome, arrive after the terminal state.
        await Promise.all(
          payments.map((p, i) =>
            p.late ? completePayment(callback(started[i] as PaymentRequest, p.late)) : undefined,
          ),
        );
        for (const [i, p] of payments.entries()) {
          const request = await getPaymentRequest(m.business.id, (started[i] as PaymentRequest).id);
          expect(request?.status).toBe(p.outcome === 'success' ? 'success' : 'error');
          if (p.outcome === 'success') expected += splitFee(p.amount, defaultFeeSchedule.wave).net;
        }
        expect((await operatingWallet(m.business.id, m.store.id)).total).toBe(expected);
        const audit = await auditLedger();
        expect(audit.breaks).toEqual([]);
        expect(audit.sumOfAllPostings).toBe(0);
      }),
      { numRuns: 12 },
    );
  });
});
