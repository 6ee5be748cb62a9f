import { randomUUID } from 'node:crypto';
import { SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureQueues } from '#infra/local/create-queues.ts';
import { startLocalSqs } from '#infra/local/sqs.ts';
import { queueUrlVariable } from '#shared/catalogue/queues.ts';
import { pastInstant } from '#test/support/eventually.ts';
import { merchant, operatingWallet } from '#test/support/fixtures.ts';
import { redirectRequestBody } from '#test/support/payment-request-body.ts';
import { streamChangesOf } from '#test/support/table-stream.ts';

// The expiry queues its checks and the ends dispatch their webhooks: a local SQS of this file's
// own, set up before the modules that build the SQS client are imported.
const localSqs = await startLocalSqs();
process.env.AWS_ENDPOINT_URL_SQS = localSqs.endpoint;
const client = new SQSClient({});
for (const [name, url] of await ensureQueues(client, localSqs.endpoint))
  process.env[queueUrlVariable(name)] = url;
process.env.PAYMENT_REQUEST_MIN_LIFETIME_SECONDS = '1';
// Windows of seconds, wide enough that a loaded machine still acts inside them.
process.env.PAYMENT_COLLECTION_GRACE_SECONDS = '3';

const { auditLedger } = await import('#shared/audit/ledger-audit.ts');
const { findPaymentRequest, recordCollectionStarted } = await import('#shared/data/payment-request.ts');
const { getOrphanCollection, orphanIdOf } = await import('#shared/data/orphan-collection.ts');
const { defaultFeeSchedule, splitFee } = await import('#shared/domain/fees.ts');
const { completePayment } = await import('#shared/settlement/collections.ts');
const { cancelPaymentRequestFor } = await import('#shared/operations/end-payment.ts');
const { checkExpiry } = await import('#shared/operations/payment-expiry.ts');
const { asSeenAt } = await import('#shared/operations/payment-request-view.ts');
const { createPaymentRequestFor, paymentRequestOf, startCollection } = await import(
  '#shared/operations/payment-requests.ts'
);
const { eventOfChange } = await import('#shared/events/stream-jobs.ts');

const baseUrl = 'http://localhost:0';
const payer = '+2250700000017';

beforeAll(() => {
  process.env.SANDBOX = 'true';
});

afterAll(async () => {
  client.destroy();
  await localSqs.stop();
});

type Merchant = Awaited<ReturnType<typeof merchant>>;
/** PAYMENT_COLLECTION_GRACE_SECONDS above, in ms. */
const graceMs = 3_000;

/**
 * A redirect request; `lifetime` in ms from now (a little over the stage's 1 s minimum, which a slow
 * request would otherwise fall under), or an `expiresAt` as an integrator writes it.
 */
async function openRequest(m: Merchant, lifetime?: number | string) {
  const expiresAt = typeof lifetime === 'number' ? new Date(Date.now() + lifetime).toISOString() : lifetime;
  return createPaymentRequestFor(
    m.caller,
    redirectRequestBody(m.store.id, { ...(expiresAt ? { expiresAt } : {}) }),
    baseUrl,
  );
}

const success = (request: { id: string; providerReference?: string | undefined }) => ({
  callbackId: randomUUID(),
  provider: 'wave' as const,
  providerReference: request.providerReference as string,
  paymentRequestId: request.id,
  outcome: 'success' as const,
  payerPhone: payer,
});

const check = (request: { id: string; expiresAt: string }) =>
  checkExpiry({ paymentRequestId: request.id, checkAt: request.expiresAt });

describe('a payment request’s expiry', () => {
  it('is 30 minutes from creation unless asked, and refused outside the stage’s bounds, naming expiresAt', async () => {
    const m = await merchant();
    const request = await openRequest(m);
    expect(Date.parse(request.expiresAt) - Date.parse(request.createdAt)).toBe(30 * 60_000);
    for (const expiresAt of [
      new Date(Date.now() + 500).toISOString(),
      new Date(Date.now() + 8 * 86_400_000).toISOString(),
    ]) {
      await expect(openRequest(m, expiresAt)).rejects.toMatchObject({
        id: 'validation_error',
        extras: { errors: [{ field: 'expiresAt' }] },
      });
    }
  });

  it('ends an unpaid request once, as a failed payment with its event, however many checks race', async () => {
    const m = await merchant();
    const request = await openRequest(m, 3_000);
    expect(await check(request)).toBe('not_due');
    await pastInstant(request.expiresAt);
    // Read before anything wrote it: already expired, with the transaction the expiry will write.
    const seenBefore = await paymentRequestOf(m.caller, request.id);
    expect(seenBefore).toMatchObject({ status: 'error', errorReason: 'expired' });
    const outcomes = await Promise.all([check(request), check(request), check(request)]);
    expect(outcomes.filter((outcome) => outcome === 'expired')).toHaveLength(1);
    const stored = await findPaymentRequest(request.id, true);
    expect(stored).toMatchObject({ status: 'error', errorReason: 'expired' });
    expect(stored?.transaction).toEqual(seenBefore.transaction);
    expect(stored?.transaction).toMatchObject({ status: 'error', fees: { amount: 0, currency: 'XOF' } });
    const changes = await streamChangesOf(`PAYREQ#${request.id}`);
    const event = await eventOfChange(changes.at(-1) as never);
    expect(event).toMatchObject({
      name: 'TRANSACTION_COMPLETED',
      body: { status: 'error', transactionDetails: { id: request.id, reference: request.reference } },
    });
    expect(await check(request)).toBe('ended_already');
    expect((await auditLedger()).breaks).toEqual([]);
  });

  it('refuses a new collection past expiresAt, by the recording’s condition too', async () => {
    const m = await merchant();
    const request = await openRequest(m, 1_500);
    await pastInstant(request.expiresAt);
    await expect(startCollection(request, 'redirect', 'wave', payer, baseUrl)).rejects.toMatchObject({
      id: 'payment_request_expired',
    });
    // Past the check before the provider is asked (a start that was under way at the instant):
    // the write refuses it.
    const recorded = await recordCollectionStarted(request, {
      providerReference: `sbx_${randomUUID()}`,
      paymentMethod: 'wave',
    });
    expect(recorded).toBe(false);
    expect((await findPaymentRequest(request.id, true))?.providerReference).toBeUndefined();
  });

  it('gives a collection under way its grace: a success in it is paid, one after it is refunded, never credited', async () => {
    const m = await merchant();
    const inGrace = await startCollection(await openRequest(m, 3_000), 'redirect', 'wave', payer, baseUrl);
    const late = await startCollection(await openRequest(m, 3_000), 'redirect', 'wave', payer, baseUrl);
    // Past both expiries, within both graces.
    await pastInstant(late.expiresAt);
    expect(asSeenAt(inGrace).status).toBe('pending');
    expect(await check(late)).toBe('in_grace');
    expect((await completePayment(success(inGrace))).result).toBe('completed');

    await pastInstant(Date.parse(late.expiresAt) + graceMs);
    expect(asSeenAt(late)).toMatchObject({ status: 'error', errorReason: 'expired' });
    // The callback finds the request over, ends it, and takes the money as the payer's.
    expect((await completePayment(success(late))).result).toBe('orphan_collection');
    expect((await completePayment(success(late))).result).toBe('orphan_collection');
    expect(await findPaymentRequest(late.id, true)).toMatchObject({
      status: 'error',
      errorReason: 'expired',
    });
    expect(await getOrphanCollection(orphanIdOf('wave', late.providerReference as string))).toMatchObject({
      paymentRequestId: late.id,
      amountCents: 150_000,
    });
    const { net } = splitFee(150_000, defaultFeeSchedule.wave);
    expect((await operatingWallet(m.business.id, m.store.id)).total).toBe(net);
    expect((await auditLedger()).breaks).toEqual([]);
  });
});

describe('cancelling a payment request', () => {
  it('ends it cancelled, and answers the same when cancelled again', async () => {
    const m = await merchant();
    const request = await openRequest(m);
    const cancelled = await cancelPaymentRequestFor(m.caller, request.id);
    expect(cancelled).toMatchObject({ status: 'error', errorReason: 'cancelled' });
    expect(await cancelPaymentRequestFor(m.caller, request.id)).toEqual(
      asSeenAt((await findPaymentRequest(request.id, true)) as never),
    );
  });

  it('refuses a paid or expired request, and does not find another business’s', async () => {
    const m = await merchant();
    const paid = await startCollection(await openRequest(m), 'redirect', 'wave', payer, baseUrl);
    await completePayment(success(paid));
    await expect(cancelPaymentRequestFor(m.caller, paid.id)).rejects.toMatchObject({
      id: 'payment_request_not_cancellable',
    });
    const expiring = await openRequest(m, 1_500);
    await pastInstant(expiring.expiresAt);
    await expect(cancelPaymentRequestFor(m.caller, expiring.id)).rejects.toMatchObject({
      id: 'payment_request_not_cancellable',
    });
    // Written expired on the way, with its webhook.
    expect(await findPaymentRequest(expiring.id, true)).toMatchObject({ errorReason: 'expired' });
    const other = await merchant();
    await expect(cancelPaymentRequestFor(other.caller, (await openRequest(m)).id)).rejects.toMatchObject({
      id: 'payment_request_not_found',
    });
  });

  it('races a success: exactly one wins, and the money of a success that lost is refunded', async () => {
    const m = await merchant();
    let paid = 0;
    for (let round = 0; round < 6; round++) {
      const request = await startCollection(await openRequest(m), 'redirect', 'wave', payer, baseUrl);
      const [cancel, completion] = await Promise.allSettled([
        cancelPaymentRequestFor(m.caller, request.id),
        completePayment(success(request)),
      ]);
      const final = await findPaymentRequest(request.id, true);
      if (final?.status === 'success') {
        paid++;
        expect(cancel).toMatchObject({
          status: 'rejected',
          reason: { id: 'payment_request_not_cancellable' },
        });
      } else {
        expect(final).toMatchObject({ status: 'error', errorReason: 'cancelled' });
        expect(completion).toMatchObject({ status: 'fulfilled', value: { result: 'orphan_collection' } });
      }
    }
    const { net } = splitFee(150_000, defaultFeeSchedule.wave);
    expect((await operatingWallet(m.business.id, m.store.id)).total).toBe(paid * net);
    expect((await auditLedger()).breaks).toEqual([]);
  });
});
