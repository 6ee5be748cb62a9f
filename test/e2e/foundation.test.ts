import { execFile } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { platformKey } from '#test/support/api-client.ts';
import { admin } from '#test/support/local-host.ts';

const { config, dataDir, output } = inject('localHost');
const { baseUrl, demo } = config;
const demoHeaders = { 'X-API-KEY-ID': demo.apiKeyId, 'X-API-KEY': demo.apiKey };

async function get(path: string, headers: Record<string, string> = demoHeaders) {
  const response = await fetch(`${baseUrl}${path}`, { headers });
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are checked by the assertions themselves
  return { status: response.status, body: (await response.json()) as any };
}

describe('the demo business seeded on first start', () => {
  it('lists its store as a bare array with id, name and currency', async () => {
    const { status, body } = await get('/partner_api/stores');
    expect(status).toBe(200);
    expect(body).toEqual([
      expect.objectContaining({ id: demo.storeId, name: expect.any(String), currency: 'XOF' }),
    ]);
  });

  it('lists its soundbox with id, type and store', async () => {
    const { status, body } = await get('/partner_api/devices');
    expect(status).toBe(200);
    expect(body).toEqual([
      expect.objectContaining({ id: demo.deviceId, type: 'SoundBoxQrTerminal', storeId: demo.storeId }),
    ]);
  });

  it('has a new store whose balance is zero XOF', async () => {
    expect(await get(`/partner_api/stores/${demo.storeId}/balance`)).toEqual({
      status: 200,
      body: { amount: 0, currency: 'XOF' },
    });
  });

  it('takes the first step the banner prints, pasted as is: a pending payment of its store', async () => {
    // The later steps pay into the demo store, whose balance this host's tests keep at zero: the
    // start page's tests paste all three on a host of their own.
    const banner = output.slice(output.indexOf('From a payment to its webhook'), output.indexOf('Ctrl-C'));
    const firstStep = banner
      .split(/\n {2}\d\. [^\n]*\n/)[1]
      ?.replace(/^ {5}/gm, '')
      .trim();
    expect(firstStep).toContain(demo.apiKey);
    const { stdout } = await promisify(execFile)('sh', ['-c', firstStep ?? 'false']);
    const paymentRequestId = stdout.trim();
    expect(paymentRequestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(await get(`/partner_api/payment_requests/${paymentRequestId}`)).toMatchObject({
      status: 200,
      body: { id: paymentRequestId, storeId: demo.storeId, status: 'pending' },
    });
  });

  it('has its credentials in DATA_DIR/local.json', () => {
    expect(config.baseUrl).toMatch(/^http:\/\/localhost:\d+$/);
    expect(Object.keys(demo).sort()).toEqual([
      'apiKey',
      'apiKeyId',
      'businessId',
      'deviceId',
      'devicePassword',
      'ownerPhone',
      'storeId',
    ]);
    // The owner signs in on the dashboard with it (test/e2e/dashboard-sign-in.test.ts).
    expect(demo.ownerPhone).toBe('+2250700000000');
  });
});

describe('authentication', () => {
  it('answers 401 unauthorized to a wrong key', async () => {
    expect(
      await get('/partner_api/stores', { 'X-API-KEY-ID': demo.apiKeyId, 'X-API-KEY': 'ppsk_not-the-key' }),
    ).toEqual({
      status: 401,
      body: { id: 'unauthorized', message: 'Invalid or missing API key', extras: null },
    });
  });

  it('answers 401 when either header is missing', async () => {
    expect((await get('/partner_api/stores', {})).status).toBe(401);
    expect((await get('/partner_api/stores', { 'X-API-KEY': demo.apiKey })).status).toBe(401);
    expect((await get('/partner_api/stores', { 'X-API-KEY-ID': demo.apiKeyId })).body.id).toBe(
      'unauthorized',
    );
  });

  it('accepts header names in any case, as HTTP says', async () => {
    expect(
      (await get('/partner_api/stores', { 'x-api-key-id': demo.apiKeyId, 'x-api-key': demo.apiKey })).status,
    ).toBe(200);
  });

  it('answers 403 business_not_enabled_for_api_access, in English, for a business without API access', async () => {
    const { businessId } = await admin(
      dataDir,
      'create-business',
      '--name',
      'Not yet verified',
      '--no-api-access',
    );
    const { keyId, key } = await admin(dataDir, 'create-key', '--business', businessId as string);
    expect(
      await get('/partner_api/stores', { 'X-API-KEY-ID': keyId as string, 'X-API-KEY': key as string }),
    ).toEqual({
      status: 403,
      body: {
        id: 'business_not_enabled_for_api_access',
        message: 'The business account is not enabled for API access',
        extras: null,
      },
    });
  });
});

describe('store balance', () => {
  let otherStoreId: string;
  beforeAll(async () => {
    const { businessId } = await admin(dataDir, 'create-business', '--name', 'Another merchant');
    ({ storeId: otherStoreId } = (await admin(
      dataDir,
      'create-store',
      '--business',
      businessId as string,
      '--name',
      'Elsewhere',
    )) as { storeId: string });
  });

  it("answers 404 for another business's store, exactly as for an unknown one", async () => {
    const theirs = await get(`/partner_api/stores/${otherStoreId}/balance`);
    const unknown = await get('/partner_api/stores/5b0f3a1e-2c4d-4e6f-8a9b-0c1d2e3f4a5b/balance');
    expect(theirs).toEqual({
      status: 404,
      body: { id: 'store_not_found', message: 'Store not found', extras: null },
    });
    expect(unknown).toEqual(theirs);
  });

  it('answers 422 validation_error naming storeId when it is not a UUID', async () => {
    expect(await get('/partner_api/stores/not-a-uuid/balance')).toEqual({
      status: 422,
      body: {
        id: 'validation_error',
        message: 'The given data was invalid',
        extras: {
          errors: [{ field: 'storeId', rule: 'uuid', message: 'The storeId field must be a valid UUID.' }],
        },
      },
    });
  });
});

describe('a platform key scoped to one store', () => {
  it('sees that store only', async () => {
    const { storeId: secondStore } = await admin(
      dataDir,
      'create-store',
      '--business',
      demo.businessId,
      '--name',
      'Second shop',
    );
    const { keyId, key } = await platformKey(dataDir, demo.businessId, demo.storeId);
    const scoped = { 'X-API-KEY-ID': keyId as string, 'X-API-KEY': key as string };
    expect((await get('/partner_api/stores', scoped)).body.map((s: { id: string }) => s.id)).toEqual([
      demo.storeId,
    ]);
    expect((await get(`/partner_api/stores/${secondStore}/balance`, scoped)).status).toBe(404);
    const all = (await get('/partner_api/stores')).body.map((s: { id: string }) => s.id);
    expect(all).toEqual(expect.arrayContaining([demo.storeId, secondStore]));
  });
});

describe('requests the service cannot serve', () => {
  it('answer 404 in the error format for an unknown route', async () => {
    expect(await get('/partner_api/nothing-here')).toEqual({
      status: 404,
      body: { id: 'not_found', message: 'Route not found', extras: null },
    });
    expect(
      (await fetch(`${baseUrl}/partner_api/stores`, { method: 'DELETE', headers: demoHeaders })).status,
    ).toBe(404);
  });

  it('answer 400 bad_request to a body that is not JSON', async () => {
    // No route of this issue takes a body, but the wrapper parses any body it is given; fetch
    // refuses a GET body, so node:http sends it.
    const malformed = '{"storeId": ';
    const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const headers = {
        ...demoHeaders,
        'content-type': 'application/json',
        'content-length': String(malformed.length),
      };
      const request = httpRequest(`${baseUrl}/partner_api/stores`, { method: 'GET', headers }, (response) => {
        let text = '';
        response.on('data', (chunk) => {
          text += chunk;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
      });
      request.on('error', reject);
      request.end(malformed);
    });
    expect(status).toBe(400);
    expect(JSON.parse(body)).toEqual({
      id: 'bad_request',
      message: 'The request body is not valid JSON',
      extras: null,
    });
  });
});
