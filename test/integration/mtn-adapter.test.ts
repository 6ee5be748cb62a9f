import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTransferBody } from '#shared/api/transfers.ts';
import { getPaymentRequest, type PaymentRequest } from '#shared/data/payment-request.ts';
import { findRefund } from '#shared/data/refund.ts';
import { getTransfer } from '#shared/data/transfer.ts';
import { ProviderRefused } from '#shared/errors/providers.ts';
import { creditStore } from '#shared/operations/credit.ts';
import { createPaymentRequestFor } from '#shared/operations/payment-requests.ts';
import { createRefundFor } from '#shared/operations/refunds.ts';
import { createTransferFor } from '#shared/operations/transfers.ts';
import { type MtnCredentials, mtnApi, mtnProvider } from '#shared/providers/mtn.ts';
import { sweepPendingCollections } from '#shared/settlement/collection-sweep.ts';
import { sweepUnsettledPayouts } from '#shared/settlement/payouts.ts';
import { type MtnFake, startMtnFake } from '#test/fakes/mtn-fake.ts';
import { startCallbackBridge } from '#test/support/callback-bridge.ts';
import { eventually } from '#test/support/eventually.ts';
import { fakeControl } from '#test/support/fake-control.ts';
import { merchant, operatingWallet } from '#test/support/fixtures.ts';
import { redirectRequestBody } from '#test/support/payment-request-body.ts';

const credentials: MtnCredentials = {
  collection: { subscriptionKey: 'col-sub-key', apiUser: randomUUID(), apiKey: 'col-api-key' },
  disbursement: { subscriptionKey: 'dis-sub-key', apiUser: randomUUID(), apiKey: 'dis-api-key' },
};
const targetEnvironment = 'mtnivorycoast';
let fake: MtnFake;
let bridge: Awaited<ReturnType<typeof startCallbackBridge>>;
let baseUrl: string;

beforeAll(async () => {
  bridge = await startCallbackBridge();
  baseUrl = bridge.url;
  fake = await startMtnFake({ credentials, targetEnvironment, answerDelayMs: 1_500 });
  process.env.SANDBOX = 'true';
  process.env.PROVIDER_ROUTES = JSON.stringify({ mtn: 'mtn' });
  process.env.MTN_API_URL = fake.url;
  process.env.MTN_TARGET_ENVIRONMENT = targetEnvironment;
  process.env.MTN_PROVIDER_SECRET = JSON.stringify(credentials);
});

afterAll(async () => {
  await fake.close();
  await bridge.close();
});

const control = fakeControl(() => fake.url);

const settle = <T>(read: () => Promise<T>, done: (value: T) => boolean) =>
  eventually(read, done, { timeoutMs: 20_000, intervalMs: 50 });

type Merchant = Awaited<ReturnType<typeof merchant>>;

/** A request in direct mode: MTN prompts the payer's phone at once, and the payer has one attempt. */
async function mtnRequest(m: Merchant, phone: string, amountCents = 250_000): Promise<PaymentRequest> {
  return createPaymentRequestFor(
    m.caller,
    redirectRequestBody(m.store.id, {
      amountCents,
      paymentMethod: 'mtn',
      data: { forceProviderDirect: true, payerPhone: phone },
    }),
    baseUrl,
  );
}

const final = (m: Merchant, id: string) =>
  settle(
    () => getPaymentRequest(m.business.id, id),
    (request) => request?.status !== 'pending',
  );

const adapter = () =>
  mtnProvider(
    mtnApi({
      baseUrl: fake.url,
      targetEnvironment,
      credentials: async () => credentials,
      policy: { timeoutMs: 1_000, attempts: 3, backoffMs: 10 },
    }),
  );

describe('MTN MoMo collections against the fake', () => {
  it('prompts the payer with a request to pay in whole francs and completes once the status confirms the callback', async () => {
    const m = await merchant();
    const request = await mtnRequest(m, '+2250500000101');
    const posted = fake.requests.find(
      (r) =>
        r.path === '/collection/v1_0/requesttopay' &&
        r.headers['x-reference-id'] === request.providerReference,
    );
    expect(posted?.body).toMatchObject({
      amount: '2500',
      currency: 'XOF',
      externalId: request.id,
      payer: { partyIdType: 'MSISDN', partyId: '2250500000101' },
    });
    expect(posted?.headers).toMatchObject({
      'x-target-environment': targetEnvironment,
      'ocp-apim-subscription-key': 'col-sub-key',
    });
    expect(posted?.headers['x-callback-url']).toBe(
      `${baseUrl}/provider_callbacks/mtn?reference=${request.providerReference}`,
    );
    expect(await final(m, request.id)).toMatchObject({ status: 'success', payerPhone: '+2250500000101' });
  });

  it('ends a payment the payer declined, and one without funds, with their reasons', async () => {
    const m = await merchant();
    const declined = await mtnRequest(m, '+2250500000102');
    const broke = await mtnRequest(m, '+2250500000103');
    expect(await final(m, declined.id)).toMatchObject({ status: 'error', errorReason: 'declined' });
    expect(await final(m, broke.id)).toMatchObject({ status: 'error', errorReason: 'insufficient_funds' });
    expect((await operatingWallet(m.business.id, m.store.id)).total).toBe(0);
  });

  it('refuses at once a payer MTN does not know, failing the request', async () => {
    const m = await merchant();
    await expect(mtnRequest(m, '+2250500000105')).rejects.toBeInstanceOf(ProviderRefused);
  });

  it('ignores a callback the status query does not confirm, and takes the later true one once', async () => {
    const m = await merchant();
    const request = await mtnRequest(m, '+2250500000104');
    const reference = request.providerReference as string;
    const before = bridge.answered.length;
    // A forged success while MTN still says PENDING: ignored.
    await control(`/collection/${reference}/callback`, {
      externalId: request.id,
      status: 'SUCCESSFUL',
      amount: '2500',
    });
    expect((await getPaymentRequest(m.business.id, request.id))?.status).toBe('pending');
    // MTN ends it FAILED, but without calling back; then a stale or forged SUCCESSFUL arrives: ignored.
    await control(`/collection/${reference}/settle`, {
      status: 'FAILED',
      reason: 'APPROVAL_REJECTED',
      callback: false,
    });
    await control(`/collection/${reference}/callback`, {
      externalId: request.id,
      status: 'SUCCESSFUL',
      amount: '2500',
    });
    expect((await getPaymentRequest(m.business.id, request.id))?.status).toBe('pending');
    // The true callback, delivered twice: the request ends once, as MTN says.
    const truth = { externalId: request.id, status: 'FAILED', reason: { code: 'APPROVAL_REJECTED' } };
    await control(`/collection/${reference}/callback`, truth);
    await control(`/collection/${reference}/callback`, truth);
    expect(await getPaymentRequest(m.business.id, request.id)).toMatchObject({
      status: 'error',
      errorReason: 'declined',
    });
    const answers = bridge.answered.slice(before).map((a) => a.status);
    expect(answers).toEqual([401, 401, 200, 200]);
  });

  it('recovers a lost callback through the collection sweep', async () => {
    const m = await merchant();
    const request = await mtnRequest(m, '+2250500000104');
    await control(`/collection/${request.providerReference}/settle`, {
      status: 'SUCCESSFUL',
      callback: false,
    });
    expect((await getPaymentRequest(m.business.id, request.id))?.status).toBe('pending');
    await sweepPendingCollections(new Date(Date.now() + 2 * 60_000));
    expect(await getPaymentRequest(m.business.id, request.id)).toMatchObject({ status: 'success' });
    expect(await adapter().collectionStatus?.(randomUUID())).toBe('not_found');
  });

  it('keeps its token for the container and takes a new one when MTN stops honouring it', async () => {
    const provider = adapter();
    const issued = fake.tokensIssued.collection;
    await provider.collectionStatus?.(randomUUID());
    await provider.collectionStatus?.(randomUUID());
    expect(fake.tokensIssued.collection).toBe(issued + 1);
    await control('/tokens/expire');
    expect(await provider.collectionStatus?.(randomUUID())).toBe('not_found');
    expect(fake.tokensIssued.collection).toBe(issued + 2);
  });

  it('retries a request to pay through 5xx under the same reference, so the payer is prompted once', async () => {
    await control('/failures', { pathPattern: '^/collection/v1_0/requesttopay$', kind: '5xx', count: 1 });
    const started = await adapter().startCollection({
      paymentRequestId: randomUUID(),
      collectionId: randomUUID(),
      provider: 'mtn',
      amountCents: 10_000,
      currency: 'XOF',
      flow: 'direct',
      payerPhone: '+2250500000104',
      callbackUrl: `${baseUrl}/provider_callbacks/mtn`,
      returnUrl: `${baseUrl}/payment/x/return`,
      baseUrl,
    });
    const attempts = fake.requests.filter((r) => r.headers['x-reference-id'] === started.providerReference);
    expect(attempts.length).toBe(2);
    expect(fake.transactions.collection.has(started.providerReference)).toBe(true);
  });
});

describe('MTN MoMo disbursements against the fake', () => {
  const payout = (m: Merchant, number: string) =>
    createTransferFor(
      m.caller,
      createTransferBody.parse({
        storeId: m.store.id,
        amountCents: 100_000,
        currency: 'XOF',
        name: 'Fournisseur',
        paymentMethod: 'mtn',
        identifier: { number },
      }),
      baseUrl,
    );
  const funded = async () => {
    const m = await merchant();
    await creditStore(m.store.id, 1_000_000);
    return m;
  };
  const transferEnds = (m: Merchant, id: string) =>
    settle(
      () => getTransfer(m.business.id, id),
      (transfer) => transfer?.status !== 'pending',
    );

  it('sends the transfer under the transfer’s own id and ends it on the confirmed callback', async () => {
    const m = await funded();
    const transfer = await payout(m, '+2250500000101');
    const posted = fake.requests.find(
      (r) =>
        r.path === '/disbursement/v1_0/transfer' &&
        r.method === 'POST' &&
        r.headers['x-reference-id'] === transfer.id,
    );
    expect(posted?.body).toMatchObject({
      amount: '1000',
      currency: 'XOF',
      payee: { partyId: '2250500000101' },
    });
    expect(await transferEnds(m, transfer.id)).toMatchObject({ status: 'success' });
  });

  it('ends a failed disbursement with its reason and gives the reservation back', async () => {
    const m = await funded();
    const limited = await payout(m, '+2250500000103');
    expect(await transferEnds(m, limited.id)).toMatchObject({
      status: 'error',
      errorReason: 'limit_exceeded',
    });
    const unknown = await payout(m, '+2250500000102');
    expect(await transferEnds(m, unknown.id)).toMatchObject({ status: 'error', errorReason: 'declined' });
    expect(await operatingWallet(m.business.id, m.store.id)).toMatchObject({ total: 1_000_000, blocked: 0 });
  });

  it('recovers a disbursement whose callback never came through the pending-transfers sweep', async () => {
    const m = await funded();
    const transfer = await payout(m, '+2250500000104');
    await control(`/disbursement/${transfer.id}/settle`, { status: 'SUCCESSFUL', callback: false });
    expect((await getTransfer(m.business.id, transfer.id))?.status).toBe('pending');
    await sweepUnsettledPayouts(new Date(Date.now() + 3 * 60_000));
    expect((await getTransfer(m.business.id, transfer.id))?.status).toBe('success');
  });
});

describe('MTN MoMo refunds against the fake', () => {
  const paidByMtn = async (phone: string) => {
    const m = await merchant();
    await creditStore(m.store.id, 1_000_000);
    const request = await mtnRequest(m, phone);
    expect((await final(m, request.id))?.status).toBe('success');
    return { m, request };
  };
  const refund = (m: Merchant, paymentRequestId: string, amountCents?: number) =>
    createRefundFor(m.caller, { paymentRequestId, amountCents, reference: `r-${randomUUID()}` }, baseUrl);
  const refundEnds = (id: string) =>
    settle(
      () => findRefund(id, true),
      (found) => found?.status !== 'pending',
    );

  it('refunds a part of a request to pay by MTN’s refund, under the refund’s own id, ended on the confirmed callback', async () => {
    const { m, request } = await paidByMtn('+2250500000111');
    const part = await refund(m, request.id, 100_000);
    expect(part).toMatchObject({ status: 'pending', route: 'refund' });
    const posted = fake.requests.find(
      (r) => r.path === '/disbursement/v1_0/refund' && r.headers['x-reference-id'] === part.id,
    );
    expect(posted?.body).toMatchObject({
      amount: '1000',
      currency: 'XOF',
      externalId: part.id,
      referenceIdToRefund: request.providerReference,
    });
    expect(posted?.headers['x-callback-url']).toBe(
      `${baseUrl}/provider_callbacks/mtn/payouts?reference=${part.id}&kind=refund`,
    );
    expect(await refundEnds(part.id)).toMatchObject({ status: 'success' });
    expect((await getPaymentRequest(m.business.id, request.id))?.refundedCents).toBe(100_000);
    // The rest, by MTN too; then nothing remains.
    const rest = await refund(m, request.id);
    expect(rest.amountCents).toBe(150_000);
    expect(await refundEnds(rest.id)).toMatchObject({ status: 'success' });
  });

  /** Paid by a payer whose MTN answers nothing until told: their refunds wait for the test too. */
  const paidBySilentPayer = async () => {
    const m = await merchant();
    await creditStore(m.store.id, 1_000_000);
    const request = await mtnRequest(m, '+2250500000104');
    await control(`/collection/${request.providerReference}/settle`, { status: 'SUCCESSFUL' });
    expect((await final(m, request.id))?.status).toBe('success');
    return { m, request };
  };

  it('ends a refund MTN could not pay with its reason and gives the reservation back', async () => {
    const { m, request } = await paidBySilentPayer();
    const part = await refund(m, request.id, 50_000);
    expect((await operatingWallet(m.business.id, m.store.id)).blocked).toBe(50_000);
    await control(`/refund/${part.id}/settle`, { status: 'FAILED', reason: 'PAYEE_NOT_FOUND' });
    expect(await refundEnds(part.id)).toMatchObject({ status: 'error', errorReason: 'declined' });
    expect((await operatingWallet(m.business.id, m.store.id)).blocked).toBe(0);
  });

  it('recovers a refund whose callback never came through the refunds sweep', async () => {
    const { m, request } = await paidBySilentPayer();
    const part = await refund(m, request.id, 20_000);
    await control(`/refund/${part.id}/settle`, { status: 'SUCCESSFUL', callback: false });
    await sweepUnsettledPayouts(new Date(Date.now() + 3 * 60_000));
    expect((await findRefund(part.id, true))?.status).toBe('success');
  });
});
