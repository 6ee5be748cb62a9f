import { DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { handler as paymentPage } from '#functions/pages/payment-page.ts';
import { handler as returnPage } from '#functions/pages/payment-return-page.ts';
import { handler as submitPaymentPage } from '#functions/pages/submit-payment-page.ts';
import { logger } from '#shared/logger.ts';
import { proxyEvent, testLambdaContext } from '#test/support/proxy-event.ts';

process.env.TABLE_NAME = 'unit';
process.env.PUBLIC_BASE_URL = 'https://pay.example';
const documentClient = mockClient(DynamoDBDocumentClient);

const id = '0b0d6c1e-6a2f-4c43-9a7e-3f0a3b6f1f11';
const businessId = 'b0b0b0b0-0000-4000-8000-000000000001';

function givenRequest(overrides: Record<string, unknown> = {}) {
  documentClient.on(GetCommand).resolves({});
  documentClient.on(GetCommand, { Key: { pk: `PAYREQ#${id}`, sk: 'PAYREQ' } }).resolves({
    Item: {
      id,
      businessId,
      storeId: 's',
      storeName: 'Boutique Awa',
      reference: 'ORDER-1',
      type: 'redirect',
      paymentMethod: 'wave',
      amountCents: 150000,
      currency: 'XOF',
      successUrl: 'myapp://paid?reference=ORDER-1',
      errorUrl: 'https://shop.example/failed',
      forceProviderDirect: false,
      redirectUrl: `https://pay.example/payment/${id}`,
      status: 'pending',
      errorReason: null,
      transaction: null,
      expiresAt: '2099-01-01T00:00:00.000Z',
      createdAt: '2025-01-01T00:00:00.000Z',
      updatedAt: '2025-01-01T00:00:00.000Z',
      ...overrides,
    },
  });
}

function event(overrides: Partial<APIGatewayProxyEvent> = {}): APIGatewayProxyEvent {
  return proxyEvent({
    path: `/payment/${id}`,
    resource: '/payment/{id}',
    pathParameters: { id },
    ...overrides,
  });
}

const post = (body: string, overrides: Partial<APIGatewayProxyEvent> = {}) =>
  event({
    httpMethod: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body,
    ...overrides,
  });

const context = testLambdaContext;

type PageLambda = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;
const call = (lambda: PageLambda, e: APIGatewayProxyEvent) => lambda(e, context);

beforeEach(() => {
  documentClient.reset();
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('the page wrapper', () => {
  it('answers HTML with the security headers', async () => {
    givenRequest();
    const response = await call(paymentPage, event());
    expect(response.statusCode).toBe(200);
    expect(response.headers).toMatchObject({
      'content-type': 'text/html; charset=utf-8',
      'x-frame-options': 'DENY',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-store',
      'content-security-policy': expect.stringContaining("default-src 'none'"),
    });
    expect(response.body).toContain('Boutique Awa');
    expect(response.body).toContain('<html lang="fr">');
  });

  it('speaks English to a browser that prefers it, and the language switch wins over the browser', async () => {
    givenRequest();
    expect(
      (await call(paymentPage, event({ headers: { 'Accept-Language': 'en-US,en;q=0.9' } }))).body,
    ).toContain('Payment method');
    const switched = await call(
      paymentPage,
      event({ headers: { 'Accept-Language': 'en-US,en;q=0.9' }, queryStringParameters: { lang: 'fr' } }),
    );
    expect(switched.body).toContain('Moyen de paiement');
  });

  it('answers a friendly 404 page for an unknown payment, and reads nothing for an id that cannot be one', async () => {
    givenRequest();
    const unknown = await call(
      paymentPage,
      event({ pathParameters: { id: '11111111-1111-4111-8111-111111111111' } }),
    );
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers?.['content-type']).toBe('text/html; charset=utf-8');
    expect(unknown.body).toContain('Paiement introuvable');
    expect(unknown.body).not.toContain('Boutique Awa');
    documentClient.reset();
    const malformed = await call(paymentPage, event({ pathParameters: { id: '../PAYREQ' } }));
    expect(malformed.statusCode).toBe(404);
    expect(documentClient.calls()).toHaveLength(0);
  });

  it('answers 500 without internals for anything unexpected, and logs it with the request id', async () => {
    const logged = vi.spyOn(logger, 'error').mockImplementation(() => undefined);
    documentClient.on(GetCommand).rejects(new Error('connection to db-internal.example refused'));
    const response = await call(paymentPage, event({ headers: { 'accept-language': 'en' } }));
    expect(response.statusCode).toBe(500);
    expect(response.body).toContain('Something went wrong');
    expect(response.body).toContain('req-1');
    expect(response.body).not.toContain('db-internal');
    expect(logged).toHaveBeenCalledWith('unexpected error', expect.objectContaining({ requestId: 'req-1' }));
  });

  it('answers 400 to a POST body that is not a form', async () => {
    givenRequest();
    const response = await call(
      submitPaymentPage,
      post('{"paymentMethod":"orange"}', { headers: { 'content-type': 'application/json' } }),
    );
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('Demande invalide');
  });
});

describe('submitting the payment page', () => {
  it('shows the form again with the error in the page language, 400, and starts nothing, for a bad phone', async () => {
    givenRequest();
    const response = await call(submitPaymentPage, post('paymentMethod=orange&payerPhone=0700'));
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain(
      'Saisissez un numéro mobile en Côte d’Ivoire, par exemple 07 07 12 34 56.',
    );
    expect(response.body).toContain('value="0700"');
    expect(response.body).toMatch(/value="orange" checked/);
    expect(documentClient.commandCalls(UpdateCommand)).toHaveLength(0);
  });

  it('sends the payer back to the page, 303, when the request is no longer pending', async () => {
    givenRequest({ status: 'success' });
    const response = await call(submitPaymentPage, post('paymentMethod=orange&payerPhone=%2B2250700000001'));
    expect(response.statusCode).toBe(303);
    expect(response.headers?.location).toBe(`https://pay.example/payment/${id}`);
  });
});

describe('the return page', () => {
  it('waits for the callback while the request is pending, looking for it in the background', async () => {
    givenRequest({ providerReference: 'sbx_x' });
    const response = await call(returnPage, event({ path: `/payment/${id}/return` }));
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('En attente de confirmation');
    expect(response.body).toContain('data-poll=');
  });

  it('sends the payer on to the merchant, app links included, once the callback has decided', async () => {
    givenRequest({ status: 'success', providerReference: 'sbx_x' });
    const paid = await call(returnPage, event({ path: `/payment/${id}/return` }));
    expect(paid.statusCode).toBe(303);
    expect(paid.headers?.location).toBe('myapp://paid?reference=ORDER-1');
    documentClient.reset();
    givenRequest({ status: 'error', errorReason: 'declined', providerReference: 'sbx_x' });
    const failed = await call(returnPage, event({ path: `/payment/${id}/return` }));
    expect(failed.headers?.location).toBe('https://shop.example/failed');
  });
});
