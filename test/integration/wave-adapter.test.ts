import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTransferBody } from '#shared/api/transfers.ts';
import { getPaymentRequest, type PaymentRequest } from '#shared/data/payment-request.ts';
import { findRefund } from '#shared/data/refund.ts';
import { getTransfer } from '#shared/data/transfer.ts';
import { collectionPollDelayMs } from '#shared/domain/collection-polling.ts';
import { ProviderUnavailable } from '#shared/errors/providers.ts';
import { PaymentRequestNotRefundable } from '#shared/errors/refunds.ts';
import { ValidationFailed } from '#shared/errors/request.ts';
import { creditStore } from '#shared/operations/credit.ts';
import { createPaymentRequestFor, startCollection } from '#shared/operations/payment-requests.ts';
import { createRefundFor } from '#shared/operations/refunds.ts';
import { createTransferFor } from '#shared/operations/transfers.ts';
import { signWaveBody, type WaveConfig, waveCallbacks, waveProvider } from '#shared/providers/wave.ts';
import { sweepPendingCollections } from '#shared/settlement/collection-sweep.ts';
import { sweepUnsettledPayouts } from '#shared/settlement/payouts.ts';
import { startWaveFake, type WaveFake } from '#test/fakes/wave-fake.ts';
import { startCallbackBridge } from '#test/support/callback-bridge.ts';
import { eventually } from '#test/support/eventually.ts';
import { fakeControl } from '#test/support/fake-control.ts';
import { merchant, operatingWallet } from '#test/support/fixtures.ts';
import { redirectRequestBody } from '#test/support/payment-request-body.ts';

const apiKey = 'wave_ci_prod_test-key';
const webhookSecret = 'wave_ci_WHS_test-secret';
let fake: WaveFake;
let bridge: Awaited<ReturnType<typeof startCallbackBridge>>;
let baseUrl: string;

beforeAll(async () => {
  bridge = await startCallbackBridge();
  baseUrl = bridge.url;
  fake = await startWaveFake({ apiKey, webhookSecret, webhookUrl: `${bridge.url}/provider_callbacks/wave` });
  process.env.SANDBOX = 'true';
  process.env.PROVIDER_ROUTES = JSON.stringify({ wave: 'wave' });
  process.env.WAVE_API_URL = fake.url;
  process.env.WAVE_PROVIDER_SECRET = JSON.stringify({ apiKey, webhookSecret });
});

afterAll(async () => {
  await fake.close();
  await bridge.close();
});

const control = fakeControl(() => fake.url);

const settle = <T>(read: () => Promise<T>, done: (value: T) => boolean) =>
  eventually(read, done, { timeoutMs: 10_000, intervalMs: 50 });

type Merchant = Awaited<ReturnType<typeof merchant>>;

async function waveRequest(m: Merchant, amountCents = 150_000): Promise<PaymentRequest> {
  const request = await createPaymentRequestFor(
    m.caller,
    redirectRequestBody(m.store.id, { amountCents }),
    baseUrl,
  );
  return startCollection(request, 'redirect', 'wave', undefined, baseUrl);
}

const settled = (m: Merchant, id: string) =>
  settle(
    () => getPaymentRequest(m.business.id, id),
    (request) => request?.status !== 'pending',
  );

type Overrides = { secret?: string; now?: () => Date; timeoutMs?: number };

const directConfig = (overrides: Overrides = {}): WaveConfig => ({
  baseUrl: fake.url,
  apiKey: async () => apiKey,
  webhookSecret: async () => overrides.secret ?? webhookSecret,
  signatureToleranceSeconds: 300,
  policy: { timeoutMs: overrides.timeoutMs ?? 2_000, attempts: 3, backoffMs: 10 },
  ...(overrides.now ? { now: overrides.now } : {}),
});

const directAdapter = (overrides: Overrides = {}) => waveProvider(directConfig(overrides));
const directCallbacks = (overrides: Overrides = {}) => waveCallbacks(directConfig(overrides));

describe('Wave collections against the fake', () => {
  it('opens a checkout session in whole francs and completes on the signed webhook, once though sent twice', async () => {
    const m = await merchant();
    const request = await waveRequest(m, 150_000);
    const session = fake.sessions.get(request.providerReference as string);
    expect(session).toMatchObject({ amount: '1500', currency: 'XOF', client_reference: request.id });
    expect(request.checkoutUrl).toBe(session?.wave_launch_url);
    const posted = fake.requests.find((r) => r.path === '/v1/checkout/sessions' && r.method === 'POST');
    expect(posted?.headers.authorization).toBe(`Bearer ${apiKey}`);

    const before = bridge.answered.length;
    await control(`/sessions/${session?.id}/pay`, { result: 'succeeded', deliveries: 2 });
    const done = await settled(m, request.id);
    expect(done?.status).toBe('success');
    const answers = bridge.answered.slice(before).map((a) => JSON.parse(a.body).result);
    expect(answers).toEqual(['completed', 'already_completed']);
    const wallet = await operatingWallet(m.business.id, m.store.id);
    // Credited once, less the fee: a second credit would exceed the amount.
    expect(wallet.total).toBeGreaterThan(0);
    expect(wallet.total).toBeLessThan(150_000);
  });

  it('keeps a payment the payer could not make open, with the reason Wave gives, for another attempt', async () => {
    const m = await merchant();
    const request = await waveRequest(m);
    await control(`/sessions/${request.providerReference}/pay`, { result: 'insufficient_funds' });
    const done = await settle(
      () => getPaymentRequest(m.business.id, request.id),
      (found) => found?.attemptError !== undefined,
    );
    expect(done).toMatchObject({ status: 'pending', attemptError: 'insufficient_funds' });
    expect((await operatingWallet(m.business.id, m.store.id)).total).toBe(0);
  });

  it('refuses a webhook signed with another secret, and one replayed outside the window', async () => {
    const m = await merchant();
    const request = await waveRequest(m);
    const event = JSON.stringify({
      id: 'EV_forged',
      type: 'checkout.session.completed',
      data: { ...fake.sessions.get(request.providerReference as string), payment_status: 'succeeded' },
    });
    const now = Math.floor(Date.now() / 1000);
    const forged = `t=${now},v1=${signWaveBody('another-secret', now, event)}`;
    expect(await directCallbacks().verifyCallback({ 'wave-signature': forged }, event)).toBeUndefined();
    const response = await fetch(`${bridge.url}/provider_callbacks/wave`, {
      method: 'POST',
      headers: { 'wave-signature': forged, 'content-type': 'application/json' },
      body: event,
    });
    expect(response.status).toBe(401);

    const old = now - 600;
    const replayed = `t=${old},v1=${signWaveBody(webhookSecret, old, event)}`;
    expect(await directCallbacks().verifyCallback({ 'wave-signature': replayed }, event)).toBeUndefined();
    // The same signature inside the window is good: the refusal above was the window's alone.
    const inWindow = directCallbacks({ now: () => new Date(old * 1000 + 60_000) });
    expect(await inWindow.verifyCallback({ 'wave-signature': replayed }, event)).toMatchObject({
      outcome: 'success',
      paymentRequestId: request.id,
    });
    expect((await getPaymentRequest(m.business.id, request.id))?.status).toBe('pending');
  });

  it('recovers a lost webhook and ends an expired session through the collection sweep, with backoff while pending', async () => {
    const m = await merchant();
    const paid = await waveRequest(m);
    await control(`/sessions/${paid.providerReference}/pay`, { result: 'succeeded', deliveries: 0 });
    const expired = await waveRequest(m);
    await control(`/sessions/${expired.providerReference}/expire`);
    const open = await waveRequest(m);
    expect(await directAdapter().collectionStatus?.('cos-unknown')).toBe('not_found');

    // Not yet due: the first question waits a minute after the start.
    await sweepPendingCollections(new Date());
    expect((await getPaymentRequest(m.business.id, paid.id))?.status).toBe('pending');
    const due = new Date(Date.now() + 2 * 60_000);
    await sweepPendingCollections(due);
    expect((await getPaymentRequest(m.business.id, paid.id))?.status).toBe('success');
    // A session Wave let expire failed: the payer may open another from the page.
    expect(await getPaymentRequest(m.business.id, expired.id)).toMatchObject({
      status: 'pending',
      attemptError: 'declined',
    });
    // Still open at Wave: asked again only after the backoff, then it is paid and found.
    expect((await getPaymentRequest(m.business.id, open.id))?.status).toBe('pending');
    const asked = () =>
      fake.requests.filter((r) => r.path === `/v1/checkout/sessions/${open.providerReference}`).length;
    const before = asked();
    await sweepPendingCollections(due);
    expect(asked()).toBe(before);
    await control(`/sessions/${open.providerReference}/pay`, { result: 'succeeded', deliveries: 0 });
    await sweepPendingCollections(new Date(due.getTime() + collectionPollDelayMs(1) + 1_000));
    expect(asked()).toBe(before + 1);
    expect((await getPaymentRequest(m.business.id, open.id))?.status).toBe('success');
  });

  it('refuses an amount that is not whole francs before calling Wave', async () => {
    const m = await merchant();
    const calls = fake.requests.length;
    await expect(waveRequest(m, 150_050)).rejects.toBeInstanceOf(ValidationFailed);
    expect(fake.requests.length).toBe(calls);
  });

  it('retries a status query through 5xx, and gives up on a hanging session POST without retrying it', async () => {
    const m = await merchant();
    const request = await waveRequest(m);
    await control('/failures', { pathPattern: '^/v1/checkout/sessions/cos-', kind: '5xx', count: 2 });
    expect(await directAdapter().collectionStatus?.(request.providerReference as string)).toBe('pending');

    await control('/failures', { pathPattern: '^/v1/checkout/sessions$', kind: 'timeout', count: 1 });
    const calls = fake.requests.filter((r) => r.path === '/v1/checkout/sessions').length;
    await expect(
      directAdapter({ timeoutMs: 300 }).startCollection({
        paymentRequestId: randomUUID(),
        collectionId: randomUUID(),
        provider: 'wave',
        amountCents: 10_000,
        currency: 'XOF',
        flow: 'redirect',
        callbackUrl: `${baseUrl}/provider_callbacks/wave`,
        returnUrl: 'https://pay.example/return',
        baseUrl,
      }),
    ).rejects.toBeInstanceOf(ProviderUnavailable);
    expect(fake.requests.filter((r) => r.path === '/v1/checkout/sessions').length).toBe(calls + 1);
  });
});

describe('Wave payouts against the fake', () => {
  const payout = async (m: Merchant, number: string, amountCents = 100_000) =>
    createTransferFor(
      m.caller,
      createTransferBody.parse({
        storeId: m.store.id,
        amountCents,
        currency: 'XOF',
        name: 'Fournisseur',
        paymentMethod: 'wave',
        identifier: { number },
      }),
      baseUrl,
    );

  const funded = async () => {
    const m = await merchant();
    await creditStore(m.store.id, 1_000_000);
    return m;
  };

  it('pays out under the transfer’s idempotency key and ends the transfer on Wave’s answer', async () => {
    const m = await funded();
    const transfer = await payout(m, '+2250700000101');
    expect(transfer.status).toBe('success');
    const sent = fake.requests.filter((r) => r.path === '/v1/payout');
    const mine = sent.find((r) => r.headers['idempotency-key'] === transfer.id);
    expect(mine?.body).toMatchObject({ currency: 'XOF', receive_amount: '1000', mobile: '+2250700000101' });
  });

  it('ends a refused payout with its reason and gives the reservation back', async () => {
    const m = await funded();
    const limited = await payout(m, '+2250700000103');
    expect(limited).toMatchObject({ status: 'error', errorReason: 'limit_exceeded' });
    const blocked = await payout(m, '+2250700000102');
    expect(blocked).toMatchObject({ status: 'error', errorReason: 'declined' });
    expect(await operatingWallet(m.business.id, m.store.id)).toMatchObject({ total: 1_000_000, blocked: 0 });
  });

  it('settles a payout still processing through the pending-transfers sweep', async () => {
    const m = await funded();
    const transfer = await payout(m, '+2250700000104');
    expect(transfer.status).toBe('pending');
    const later = new Date(Date.now() + 3 * 60_000);
    await sweepUnsettledPayouts(later);
    expect((await getTransfer(m.business.id, transfer.id))?.status).toBe('pending');
    const waveId = [...fake.payouts.values()].find((p) => p.client_reference === transfer.id)?.id;
    await control(`/payouts/${waveId}/settle`, { status: 'succeeded' });
    await sweepUnsettledPayouts(later);
    expect((await getTransfer(m.business.id, transfer.id))?.status).toBe('success');
  });
});

describe('Wave refunds against the fake', () => {
  /** A Wave payment completed on its signed webhook, in a store with money to refund it. */
  const paidByWave = async () => {
    const m = await merchant();
    await creditStore(m.store.id, 1_000_000);
    const request = await waveRequest(m, 150_000);
    await control(`/sessions/${request.providerReference}/pay`, { result: 'succeeded' });
    expect((await settled(m, request.id))?.status).toBe('success');
    return { m, request };
  };
  const refund = (m: Merchant, paymentRequestId: string, amountCents?: number) =>
    createRefundFor(m.caller, { paymentRequestId, amountCents, reference: `r-${randomUUID()}` }, baseUrl);

  it('gives a whole payment back by Wave’s checkout refund, ended on its answer, once', async () => {
    const { m, request } = await paidByWave();
    const done = await refund(m, request.id);
    expect(done).toMatchObject({ status: 'success', route: 'refund', amountCents: 150_000 });
    const asked = fake.requests.filter(
      (r) => r.path === `/v1/checkout/sessions/${request.providerReference}/refund` && r.method === 'POST',
    );
    expect(asked).toHaveLength(1);
    expect(fake.sessions.get(request.providerReference as string)?.payment_status).toBe('refunded');
    expect((await getPaymentRequest(m.business.id, request.id))?.refundedCents).toBe(150_000);
    await expect(refund(m, request.id)).rejects.toBeInstanceOf(PaymentRequestNotRefundable);
  });

  it('refuses a part of a payment whose payer Wave never named: Wave gives back whole sessions only', async () => {
    const { m, request } = await paidByWave();
    await expect(refund(m, request.id, 50_000)).rejects.toBeInstanceOf(PaymentRequestNotRefundable);
    expect((await operatingWallet(m.business.id, m.store.id)).blocked).toBe(0);
  });

  it('asks again through the refunds sweep when Wave could not take the refund, the session still paid', async () => {
    const { m, request } = await paidByWave();
    await control('/failures', { pathPattern: '/refund$', kind: '5xx', count: 1 });
    const pending = await refund(m, request.id);
    expect(pending.status).toBe('pending');
    await sweepUnsettledPayouts(new Date(Date.now() + 3 * 60_000));
    expect((await findRefund(pending.id, true))?.status).toBe('success');
    expect(fake.sessions.get(request.providerReference as string)?.payment_status).toBe('refunded');
    expect((await operatingWallet(m.business.id, m.store.id)).blocked).toBe(0);
  });
});
