import { createPartnerPaymentsClient, type Schemas } from 'partner-payments-service/client';
import { describe, expect, inject, it } from 'vitest';
import type { Body } from '#test/support/api-client.ts';
import { redirectRequestBody } from '#test/support/payment-request-body.ts';

const { config } = inject('localHost');
const { baseUrl, demo } = config;

const client = createPartnerPaymentsClient({ baseUrl, keyId: demo.apiKeyId, key: demo.apiKey });

describe('the published reference', () => {
  it('is served at /openapi.json without a key, naming this host as its server', async () => {
    const response = await fetch(`${baseUrl}/openapi.json`);
    expect(response.status).toBe(200);
    const document = (await response.json()) as Body;
    expect(document.openapi).toBe('3.1.0');
    expect(document.servers).toEqual([{ url: baseUrl }]);
    expect(document.paths['/partner_api/payment_requests'].post.operationId).toBe('createPaymentRequest');
    // The local host is a sandbox: the sandbox's operations are there.
    expect(document.paths['/sandbox/payment_requests/{id}/approve']).toBeDefined();
    expect(Object.keys(document.webhooks)).toContain('TRANSACTION_COMPLETED');
    // The dashboard's pages are a member's, not the integrators' interface: none is described here
    // (they have their internal document, shared/openapi/dashboard-openapi.json, served nowhere).
    const paths = Object.keys(document.paths);
    expect(paths.filter((path) => path === '/dashboard' || path.startsWith('/dashboard/'))).toEqual([]);
    expect(document.tags.map((tag: { name: string }) => tag.name)).not.toContain('Dashboard');
    // The payers' hosted pages stay: an integrator sends its payers there.
    expect(document.paths['/payment/{id}'].get.operationId).toBeDefined();
  });

  it('serves its page and the viewer from the service itself', async () => {
    const page = await fetch(`${baseUrl}/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await page.text();
    expect(html).toContain(`${baseUrl}/docs/assets/swagger-ui-bundle.js`);
    expect(html).not.toMatch(/https?:\/\/(?!127\.0\.0\.1|localhost)/);
    const viewer = await fetch(`${baseUrl}/docs/assets/swagger-ui-bundle.js`);
    expect(viewer.status).toBe(200);
    expect(viewer.headers.get('content-type')).toContain('javascript');
    expect((await viewer.text()).length).toBeGreaterThan(500_000);
    expect((await fetch(`${baseUrl}/docs/assets/swagger-ui.css`)).status).toBe(200);
    expect((await fetch(`${baseUrl}/docs/assets/package.json`)).status).toBe(404);
  });
});

describe('the typed client (partner-payments-service/client)', () => {
  it('lists the stores, creates a payment request idempotently and reads it back, typed', async () => {
    const stores = await client.GET('/partner_api/stores');
    expect(stores.response.status).toBe(200);
    // Other suites add stores to the demo business on the same host: the demo's store is among them.
    expect(stores.data?.map((store) => store.id)).toContain(demo.storeId);
    const storeId = demo.storeId;

    const reference = `commande-${Date.now()}`;
    const body = redirectRequestBody(storeId, {
      amountCents: 1_500_000,
      reference,
      data: { successUrl: 'https://boutique-awa.ci/merci', errorUrl: 'https://boutique-awa.ci/echec' },
    });
    const params = { header: { 'Idempotency-Key': `${reference}-1` } };
    const created = await client.POST('/partner_api/payment_requests', { params, body });
    expect(created.response.status).toBe(200);
    const request: Schemas['PaymentRequest'] | undefined = created.data;
    expect(request).toMatchObject({
      reference,
      status: 'pending',
      amount: { amount: 1_500_000, currency: 'XOF' },
    });

    const read = await client.GET('/partner_api/payment_requests/{id}', {
      params: { path: { id: request?.id ?? '' } },
    });
    expect(read.data).toMatchObject({ id: request?.id, reference });
  });

  it('types the errors too: a 422 carries extras.errors naming the field', async () => {
    const { response, error } = await client.POST('/partner_api/payment_links', {
      body: { storeId: demo.storeId, title: 'Trop court', amountCents: 50 },
    });
    expect(response.status).toBe(422);
    expect(error).toMatchObject({
      id: 'validation_error',
      extras: { errors: [expect.objectContaining({ field: 'amountCents', rule: 'min' })] },
    });
  });
});
