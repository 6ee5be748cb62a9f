import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PawapayFake, startPawapayFake } from '#test/fakes/pawapay-fake.ts';
import { apiClient, type Body, type Merchant, newMerchant } from '#test/support/api-client.ts';
import { eventually } from '#test/support/eventually.ts';
import { admin, type LocalHost, newDataDir, startLocalHost } from '#test/support/local-host.ts';
import { testHostEnv } from '#test/support/local-host-global-setup.ts';
import { redirectRequestBody } from '#test/support/payment-request-body.ts';

/**
 * The local host routed to pawaPay as docs/operations/live-providers.md says: PROVIDER_ROUTES,
 * PAWAPAY_BASE_URL, PAWAPAY_API_TOKEN and PAWAPAY_CALLBACK_PUBLIC_KEY pointing at a server that
 * speaks pawaPay's published API (the contract fake, over HTTP), whose signed callbacks reach the
 * host's `/provider_callbacks/pawapay/{kind}`. Payments, payouts and refunds of the operators of
 * the zone pawaPay carries; forged and disagreeing callbacks; the ledger audit at the end.
 */
let host: LocalHost;
let pawapay: PawapayFake;
let merchant: Merchant;
let call: ReturnType<typeof apiClient>;

beforeAll(async () => {
  const apiToken = randomUUID();
  pawapay = await startPawapayFake({ apiToken, answerDelayMs: 300 });
  host = await startLocalHost(newDataDir(), {
    ...testHostEnv,
    PROVIDER_ROUTES: JSON.stringify({
      orange: 'pawapay',
      moov: 'pawapay',
      mtn: { CI: 'sandbox', '*': 'pawapay' },
    }),
    PAWAPAY_BASE_URL: pawapay.url,
    PAWAPAY_API_TOKEN: apiToken,
    PAWAPAY_CALLBACK_PUBLIC_KEY: pawapay.publicKeyPem.replaceAll('\n', '\\n'),
    // pawaPay's availability read again each second, so closing an operator shows at once.
    OPERATOR_STATUS_CACHE_SECONDS: '1',
  });
  // pawaPay's dashboard holds the callback URLs: the host's, now it is known.
  pawapay.setCallbackBase(host.config.baseUrl);
  call = apiClient(host.config.baseUrl);
  merchant = await newMerchant(host.dataDir, 'Zone');
  await admin(host.dataDir, 'credit', '--store', merchant.storeId, '--amount', '10000000');
}, 180_000);

afterAll(async () => {
  await host?.stop();
  await pawapay?.close();
});

/** pawaPay's side, scripted through the fake's control routes. */
const control = (path: string, body: unknown) => apiClient(pawapay.url)('POST', path, {}, body);

const api = (method: string, path: string, body?: unknown) => call(method, path, merchant.headers, body);
const until = <T>(read: () => Promise<T>, done: (value: T) => boolean) =>
  eventually(read, done, { timeoutMs: 30_000, intervalMs: 200 });
const ended = (path: string) =>
  until(
    async () => (await api('GET', path)).body as Body,
    (body) => body.status !== 'pending',
  );

/** A direct payment: the payer's phone is prompted by pawaPay. */
const directPayment = (paymentMethod: string, payerPhone: string, amountCents = 250_000) =>
  api(
    'POST',
    '/partner_api/payment_requests',
    redirectRequestBody(merchant.storeId, {
      paymentMethod,
      amountCents,
      data: { forceProviderDirect: true, payerPhone },
    }),
  );

const deposits = () => [...pawapay.held.values()].filter((t) => t.depositId);

describe('pawaPay on the local host', () => {
  it.each([
    ['orange', "Côte d'Ivoire", 'ORANGE_CIV', '+2250700000789'],
    ['orange', 'Mali', 'ORANGE_MLI', '+22376000789'],
    ['orange', 'Burkina Faso', 'ORANGE_BFA', '+22607000789'],
    ['moov', 'Benin', 'MOOV_BEN', '+2290195000789'],
    ['moov', 'Togo', 'MOOV_TGO', '+22899000789'],
    ['mtn', 'Benin', 'MTN_MOMO_BEN', '+2290196000789'],
  ])(
    'takes a %s payment in %s through %s, pays out and refunds part of it',
    async (method, _country, code, phone) => {
      const created = await directPayment(method, phone);
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      expect(await ended(`/partner_api/payment_requests/${created.body.id}`)).toMatchObject({
        status: 'success',
        paymentMethod: method,
      });
      const deposit = deposits().find((t) => t.metadata?.paymentRequestId === created.body.id);
      expect(deposit).toMatchObject({
        amount: '2500',
        currency: 'XOF',
        payer: { accountDetails: { provider: code } },
      });

      const transfer = await api('POST', '/partner_api/transfers', {
        storeId: merchant.storeId,
        amountCents: 100_000,
        currency: 'XOF',
        name: 'Fournisseur',
        paymentMethod: method,
        identifier: { number: phone },
      });
      expect(transfer.status, JSON.stringify(transfer.body)).toBe(200);
      expect(await ended(`/partner_api/transfers/${transfer.body.id}`)).toMatchObject({ status: 'success' });
      expect(pawapay.held.get(`payouts:${transfer.body.id}`)).toMatchObject({
        amount: '1000',
        recipient: { accountDetails: { provider: code, phoneNumber: phone.slice(1) } },
      });

      const refund = await api('POST', '/partner_api/refunds', {
        paymentRequestId: created.body.id,
        amountCents: 50_000,
        reference: `retour-${randomUUID()}`,
      });
      expect(refund.status, JSON.stringify(refund.body)).toBe(201);
      expect(await ended(`/partner_api/refunds/${refund.body.id}`)).toMatchObject({ status: 'success' });
      expect(pawapay.held.get(`refunds:${refund.body.id}`)).toMatchObject({
        amount: '500',
        status: 'COMPLETED',
      });
    },
  );

  it('ends a declined payment as the status check says, insufficient funds named', async () => {
    const created = await directPayment('orange', '+2250700000049');
    expect(await ended(`/partner_api/payment_requests/${created.body.id}`)).toMatchObject({
      status: 'error',
      errorReason: 'insufficient_funds',
    });
  });

  it('moves nothing on a forged callback or one the status check does not confirm', async () => {
    // 129: the deposit stays ACCEPTED at pawaPay until settled by hand.
    const created = await directPayment('moov', '+22899000129');
    expect(created.status).toBe(200);
    const deposit = await until(
      async () => deposits().find((t) => t.metadata?.paymentRequestId === created.body.id),
      (found) => found !== undefined,
    );
    const claim = { ...deposit, status: 'COMPLETED' };
    const forged = await control(`/_fake/deposits/callback`, { ...claim, forge: true });
    expect(forged.body.sent.status).toBe(401);
    // Signed with pawaPay's key, but pawaPay's status check still says ACCEPTED.
    const disagreeing = await control(`/_fake/deposits/callback`, claim);
    expect(disagreeing.body.sent.status).toBe(401);
    // Unsigned, on a stage that holds pawaPay's key.
    const unsigned = await fetch(`${host.config.baseUrl}/provider_callbacks/pawapay/deposits`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(claim),
    });
    expect(unsigned.status).toBe(401);
    expect((await api('GET', `/partner_api/payment_requests/${created.body.id}`)).body.status).toBe(
      'pending',
    );

    // Settled at pawaPay, its signed callback completes it, once: a copy changes nothing more.
    await control(`/_fake/deposits/${deposit?.depositId}/settle`, { status: 'COMPLETED' });
    expect(await ended(`/partner_api/payment_requests/${created.body.id}`)).toMatchObject({
      status: 'success',
    });
    const copy = await control(`/_fake/deposits/callback`, {
      ...pawapay.held.get(`deposits:${deposit?.depositId}`),
    });
    expect(copy.body.sent.status).toBe(200);
  });

  it('refuses amounts that are not whole francs with 422 naming amountCents, before anything is written', async () => {
    const before = deposits().length;
    const refused = await directPayment('orange', '+2250700000789', 100_050);
    expect(refused.status).toBe(422);
    expect(refused.body.extras.errors).toEqual([
      expect.objectContaining({ field: 'amountCents', rule: 'multiple_of' }),
    ]);
    expect(deposits().length).toBe(before);
  });

  it('does not offer an operator pawaPay closed, and answers 503 with Retry-After, writing nothing', async () => {
    const orangeBurkina = redirectRequestBody(merchant.storeId, {
      paymentMethod: 'orange',
      amountCents: 300_000,
      data: { forceProviderDirect: true, payerPhone: '+22607000789' },
    });
    const before = deposits().length;
    await control('/_fake/providers/ORANGE_BFA', { status: 'CLOSED' });
    try {
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      const response = await fetch(`${host.config.baseUrl}/partner_api/payment_requests`, {
        method: 'POST',
        headers: { ...merchant.headers, 'content-type': 'application/json' },
        body: JSON.stringify(orangeBurkina),
      });
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('60');
      expect(await response.json()).toMatchObject({
        id: 'provider_unavailable',
        extras: { paymentMethod: 'orange', country: 'BF', retryAfterSeconds: 60 },
      });
      const payout = await api('POST', '/partner_api/transfers', {
        storeId: merchant.storeId,
        amountCents: 100_000,
        currency: 'XOF',
        name: 'Fournisseur',
        paymentMethod: 'orange',
        identifier: { number: '+22607000789' },
      });
      expect(payout.status).toBe(503);
      expect(payout.body.id).toBe('provider_unavailable');
      // Still open in Mali.
      expect((await directPayment('orange', '+22376000789')).status).toBe(200);

      // The payer page for a number of Burkina Faso leaves Orange Money out and says why.
      const other = await api(
        'POST',
        '/partner_api/payment_requests',
        redirectRequestBody(merchant.storeId, { paymentMethod: 'moov', amountCents: 200_000 }),
      );
      const pageUrl = `${host.config.baseUrl}/payment/${other.body.id}`;
      const page = await (await fetch(`${pageUrl}?country=BF&lang=fr`)).text();
      expect(page).toContain('id="operators-down"');
      expect(page).toContain('Orange Money ne fonctionne pas en ce moment');
      expect(page).not.toMatch(/name="paymentMethod" value="orange"/);
      expect(page).toMatch(/name="paymentMethod" value="moov"/);
      // A form posted with it all the same comes back, nothing started.
      const posted = await fetch(pageUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ paymentMethod: 'orange', payerPhone: '07000789', payerCountry: 'BF' }),
        redirect: 'manual',
      });
      expect(posted.status).toBe(400);
      expect(await posted.text()).toContain('id="method-error"');
    } finally {
      await control('/_fake/providers/ORANGE_BFA', { status: 'OPERATIONAL' });
    }
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    // Nothing was written: the same reference is free, and pawaPay saw no Burkinabè deposit.
    expect(
      deposits()
        .slice(before)
        .some((t) => t.payer?.accountDetails.provider === 'ORANGE_BFA'),
    ).toBe(false);
    const reopened = await api('POST', '/partner_api/payment_requests', orangeBurkina);
    expect(reopened.status, JSON.stringify(reopened.body)).toBe(200);
  });

  it('keeps the ledger whole', async () => {
    const audit = await admin<{ ok: boolean }>(host.dataDir, 'audit');
    expect(audit.ok).toBe(true);
  });
});
