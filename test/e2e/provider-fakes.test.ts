import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, type Body, type Merchant, newMerchant } from '#test/support/api-client.ts';
import { eventually } from '#test/support/eventually.ts';
import { admin, type LocalHost, newDataDir, startLocalHost } from '#test/support/local-host.ts';
import { testHostEnv } from '#test/support/local-host-global-setup.ts';
import { redirectRequestBody } from '#test/support/payment-request-body.ts';
import { startWebhookReceiver, type WebhookReceiver } from '#test/support/webhook-receiver.ts';

/**
 * The whole service with PROVIDERS=fake: Wave and MTN MoMo payments go through their real adapters
 * to the contract fakes, over HTTP, and the merchant gets its webhooks as with the sandbox. A host of
 * its own, since the shared one keeps every method on the sandbox.
 */
let host: LocalHost;
let merchant: Merchant;
let receiver: WebhookReceiver;
let call: ReturnType<typeof apiClient>;

beforeAll(async () => {
  host = await startLocalHost(newDataDir(), { ...testHostEnv, PROVIDERS: 'fake' });
  call = apiClient(host.config.baseUrl);
  merchant = await newMerchant(host.dataDir, 'Live');
  receiver = await startWebhookReceiver();
  await admin(host.dataDir, 'set-webhook', '--business', merchant.businessId, '--url', receiver.url);
  await admin(host.dataDir, 'credit', '--store', merchant.storeId, '--amount', '10000000');
}, 180_000);

afterAll(async () => {
  await receiver?.close();
  await host?.stop();
});

const api = (method: string, path: string, body?: unknown) => call(method, path, merchant.headers, body);

const until = <T>(read: () => Promise<T>, done: (value: T) => boolean) =>
  eventually(read, done, { timeoutMs: 30_000, intervalMs: 200 });

const webhookAbout = (id: string) =>
  until(
    async () =>
      receiver.received
        .map((w) => JSON.parse(w.body.toString('utf8')) as Body)
        .filter((sent) => JSON.stringify(sent).includes(id)),
    (found) => found.length > 0,
  );

const paymentRequest = (data: Record<string, unknown>) =>
  api(
    'POST',
    '/partner_api/payment_requests',
    redirectRequestBody(merchant.storeId, { amountCents: 250_000, data: { ...data } }),
  );

describe('PROVIDERS=fake on the local host', () => {
  it('takes a redirect payment through Wave: hosted page, Wave checkout, signed webhook, merchant webhook', async () => {
    const created = await paymentRequest({ paymentMethod: 'wave' });
    expect(created.status).toBe(200);
    const page = await fetch(created.body.redirectUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ paymentMethod: 'wave', payerPhone: '+2250700000101' }),
      redirect: 'manual',
    });
    const checkout = page.headers.get('location') ?? '';
    expect(checkout.startsWith(`${host.config.fakeProviders?.wave}/c/cos-`)).toBe(true);

    // The payer pays on Wave; Wave sends them back to the service's return page.
    const paid = await fetch(`${checkout}/pay`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ result: 'succeeded' }),
      redirect: 'manual',
    });
    expect(paid.headers.get('location')).toBe(`${host.config.baseUrl}/payment/${created.body.id}/return`);
    const done = await until(
      async () => (await api('GET', `/partner_api/payment_requests/${created.body.id}`)).body,
      (body) => body.status !== 'pending',
    );
    expect(done).toMatchObject({ status: 'success', paymentMethod: 'wave' });
    expect((await webhookAbout(created.body.id))[0]).toMatchObject({ status: 'success' });
  });

  it('takes a direct payment through MTN MoMo: the payer’s phone is prompted and the status confirms it', async () => {
    const created = await paymentRequest({
      paymentMethod: 'mtn',
      forceProviderDirect: true,
      payerPhone: '+2250500000101',
    });
    expect(created.status).toBe(200);
    expect(created.body.status).toBe('pending');
    const done = await until(
      async () => (await api('GET', `/partner_api/payment_requests/${created.body.id}`)).body,
      (body) => body.status !== 'pending',
    );
    expect(done).toMatchObject({ status: 'success', paymentMethod: 'mtn' });
    expect((await webhookAbout(created.body.id))[0]).toMatchObject({ status: 'success' });
  });

  it.each([
    ['wave', '+2250700000101'],
    ['mtn', '+2250500000101'],
  ])('pays out through %s and tells the merchant', async (method, number) => {
    const created = await api('POST', '/partner_api/transfers', {
      storeId: merchant.storeId,
      amountCents: 100_000,
      currency: 'XOF',
      name: 'Fournisseur Bamba',
      paymentMethod: method,
      identifier: { number },
    });
    expect(created.status).toBe(200);
    const done = await until(
      async () => (await api('GET', `/partner_api/transfers/${created.body.id}`)).body,
      (body) => body.status !== 'pending',
    );
    expect(done).toMatchObject({ status: 'success' });
    expect((await webhookAbout(created.body.id))[0]).toMatchObject({
      status: 'success',
      transactionType: 'transfer',
    });
  });
});
