import { createHmac, randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { maxFormFieldChars } from '#shared/http/page-handler.ts';
import { apiClient, type Merchant, newMerchant } from '#test/support/api-client.ts';
import { redirectRequestBody } from '#test/support/payment-request-body.ts';

const { config, dataDir } = inject('localHost');
const { baseUrl } = config;
const send = apiClient(baseUrl);

let merchant: Merchant;
beforeAll(async () => {
  merchant = await newMerchant(dataDir, 'Limites');
});

const call = (method: string, path: string, body?: unknown, headers = merchant.headers) =>
  send(method, path, headers, body);

const paymentRequest = (overrides: Record<string, unknown> = {}, data: Record<string, unknown> = {}) =>
  redirectRequestBody(merchant.storeId, {
    data: { errorUrl: 'https://shop.example/failed', ...data },
    ...overrides,
  });

const transactionCount = async () =>
  (await call('GET', `/partner_api/transactions?storeId=${merchant.storeId}`)).body.total as number;

describe('signed provider callbacks', () => {
  const sign = (body: string) =>
    createHmac('sha256', config.sandbox.providerSecret).update(body).digest('hex');
  const signedCallback = (fields: Record<string, unknown>) => {
    const body = JSON.stringify({
      callbackId: randomUUID(),
      provider: 'wave',
      providerReference: `sbx_${randomUUID()}`,
      paymentRequestId: randomUUID(),
      outcome: 'success',
      ...fields,
    });
    return send('POST', '/provider_callbacks/wave', { 'x-sandbox-signature': sign(body) }, body);
  };

  it.each([
    ['paymentRequestId', 'p'.repeat(5_000)],
    ['providerReference', 'r'.repeat(5_000)],
    ['callbackId', 'c'.repeat(5_000)],
    ['payerName', 'n'.repeat(5_000)],
    ['paymentRequestId', 42],
  ])('refuse an over-long or mistyped %s before any look-up, without a 500', async (field, value) => {
    const answer = await signedCallback({ [field]: value });
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({ id: 'unauthorized', message: expect.any(String), extras: null });
  });
});

describe('field and body sizes', () => {
  it('refuses a body over the gateway limit with 413, before it reaches the handler', async () => {
    const answer = await call(
      'POST',
      '/partner_api/payment_requests',
      paymentRequest({ note: 'x'.repeat(20_000) }),
    );
    expect(answer.status).toBe(413);
    expect(answer.body.id).toBe('request_too_large');
  });

  it('refuses an over-long payer phone on the hosted page without echoing it', async () => {
    const created = await call('POST', '/partner_api/payment_requests', paymentRequest());
    const phone = `+225${'7'.repeat(maxFormFieldChars)}`;
    const response = await fetch(`${baseUrl}/payment/${created.body.id}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ paymentMethod: 'wave', payerPhone: phone }),
      redirect: 'manual',
    });
    expect(response.status).toBe(400);
    expect(await response.text()).not.toContain(phone);
  });

  it('refuses an over-long provider reference on the sandbox checkout page with 404, not 500', async () => {
    const response = await fetch(`${baseUrl}/sandbox/provider/checkout/sbx_${'a'.repeat(3_000)}`);
    expect(response.status).toBe(404);
  });
});

describe('text that is not well-formed Unicode', () => {
  it('is refused in a reference, naming the field, and creates nothing', async () => {
    const before = await transactionCount();
    const body = JSON.stringify(paymentRequest()).replace(
      /"reference":"[^"]*"/,
      '"reference":"order-\\ud800"',
    );
    const answer = await call('POST', '/partner_api/payment_requests', body);
    expect(answer.status).toBe(422);
    expect(answer.body.extras.errors).toEqual([
      expect.objectContaining({ field: 'reference', rule: 'format' }),
    ]);
    expect(await transactionCount()).toBe(before);
  });

  it('so two lone surrogates never collide as one reference', async () => {
    const reference = `order-${randomUUID()}`;
    for (const surrogate of ['\\ud800', '\\udc00']) {
      const body = JSON.stringify(paymentRequest()).replace(
        /"reference":"[^"]*"/,
        `"reference":"${reference}${surrogate}"`,
      );
      expect((await call('POST', '/partner_api/payment_requests', body)).status).toBe(422);
    }
  });

  it('is refused in a payment link title', async () => {
    const link = `{"storeId":"${merchant.storeId}","title":"Commande \\udfff 42","amountCents":10000}`;
    const answer = await call('POST', '/partner_api/payment_links', link);
    expect(answer.status).toBe(422);
    expect(answer.body.extras.errors).toEqual([expect.objectContaining({ field: 'title', rule: 'format' })]);
  });

  it('keeps a well-formed emoji, a surrogate pair in JSON', async () => {
    const reference = `order-${randomUUID()}-\u{1F600}`;
    const answer = await call('POST', '/partner_api/payment_requests', paymentRequest({ reference }));
    expect(answer.status).toBe(200);
    expect(answer.body.reference).toBe(reference);
  });
});

describe('return URLs', () => {
  it.each([
    'livescript:alert(1)',
    'jar:https://evil.example/a.jar!/x.html',
    'JaVaScRiPt:alert(1)',
    'vbscript:msgbox(1)',
    'data:text/html;base64,PHNjcmlwdD4=',
    'view-source:https://shop.example',
    'ms-its:mhtml:file://c:/x.mht!https://evil.example/x.html',
    'https://',
  ])('refuses %s with 422 naming the field', async (url) => {
    const answer = await call(
      'POST',
      '/partner_api/payment_requests',
      paymentRequest({}, { successUrl: url }),
    );
    expect(answer.status).toBe(422);
    expect(answer.body.extras.errors).toEqual([
      expect.objectContaining({
        field: 'paymentDetails.data.successUrl',
        rule: expect.stringMatching(/url|format/),
      }),
    ]);
  });

  it.each([
    'https://shop.example/ok?ref=1',
    'myapp://paid?reference=42',
    'intent://pay#Intent;scheme=app;end',
    'http://localhost:8080/ok',
  ])('accepts %s (plain http only off production, as here)', async (url) => {
    const answer = await call(
      'POST',
      '/partner_api/payment_requests',
      paymentRequest({}, { successUrl: url }),
    );
    expect(answer.status).toBe(200);
  });
});

describe('an idempotent replay', () => {
  it('answers the very bytes of the first answer', async () => {
    const headers = { ...merchant.headers, 'Idempotency-Key': randomUUID() };
    const body = paymentRequest({}, { successUrl: 'myapp://paid?z=1&a=2' });
    const first = await fetch(`${baseUrl}/partner_api/payment_requests`, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
    });
    const replay = await fetch(`${baseUrl}/partner_api/payment_requests`, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
    });
    expect(first.status).toBe(200);
    expect(replay.status).toBe(200);
    const firstText = await first.text();
    expect(await replay.text()).toBe(firstText);
    expect(Object.keys(JSON.parse(firstText))[0]).toBe('id');
  });
});
