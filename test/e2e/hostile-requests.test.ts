import { connect } from 'node:net';
import { describe, expect, inject, it } from 'vitest';
import { requestLimits } from '#shared/http/request-limits.ts';
import { demoApi } from '#test/support/api-client.ts';

const { config } = inject('localHost');
const port = Number(new URL(config.baseUrl).port);
const api = demoApi(config);

/**
 * Writes bytes to the local host as they are, with no client library to tidy the request target
 * or the headers, and resolves with the status line (or '' when the host closes without one).
 */
function raw(request: string, { hangUpAfterWrite = false } = {}): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      text += chunk;
    });
    socket.on('error', reject);
    socket.on('close', () => resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), text }));
    socket.write(request, 'latin1', () => {
      if (hangUpAfterWrite) socket.destroy();
    });
  });
}

const get = (target: string, headers: Record<string, string> = {}) =>
  raw(
    `GET ${target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n${Object.entries({
      'X-API-KEY-ID': config.demo.apiKeyId,
      'X-API-KEY': config.demo.apiKey,
      ...headers,
    })
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('')}\r\n`,
  );

/** The host still answers a normal request, with its database behind it. */
async function expectHostAlive() {
  const stores = await api('GET', '/partner_api/stores');
  expect(stores.status).toBe(200);
  expect(stores.body).toEqual(expect.arrayContaining([expect.objectContaining({ id: config.demo.storeId })]));
}

describe('the local host survives any request', () => {
  it.each(['toString', '__proto__', 'constructor', 'hasOwnProperty', 'valueOf'])(
    'answers a query parameter named %s like any other',
    async (name) => {
      const answer = await get(`/partner_api/stores?${name}=1&${name}=2`);
      expect(answer.status).toBe(200);
      await expectHostAlive();
    },
  );

  it.each(['toString', '__proto__', 'constructor'])(
    'answers a header named %s like any other',
    async (name) => {
      const answer = await get('/partner_api/stores', { [name]: '1' });
      expect(answer.status).toBe(200);
      await expectHostAlive();
    },
  );

  it('refuses a query parameter of a validated route named __proto__ only by its own rules', async () => {
    const answer = await get('/partner_api/transactions?__proto__=1&constructor=2&limit=1');
    expect(answer.status).toBe(200);
    await expectHostAlive();
  });

  it.each([
    '/payment/%E0%A4%A',
    '/partner_api/payment_requests/%',
    '/partner_api/stores/%ZZ/balance',
    '/pl/%C0%80',
  ])('answers 400 to the malformed escape in %s', async (target) => {
    const answer = await get(target);
    expect(answer.status).toBe(400);
    expect(answer.text).toContain('"id":"bad_request"');
    await expectHostAlive();
  });

  it.each(['//[', '//[::1', '//user@host/x', '//a:b/'])(
    'answers the request target %s without crashing',
    async (target) => {
      const answer = await get(target);
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
      await expectHostAlive();
    },
  );

  it('answers 400 to a request target that is not a path', async () => {
    expect((await get('*')).status).toBe(400);
    expect((await get('http://[/')).status).toBe(400);
    await expectHostAlive();
  });

  it('lives on when a client announces a body and hangs up before sending it', async () => {
    const head = [
      'POST /partner_api/payment_requests HTTP/1.1',
      'Host: localhost',
      `X-API-KEY-ID: ${config.demo.apiKeyId}`,
      `X-API-KEY: ${config.demo.apiKey}`,
      'Content-Type: application/json',
      'Content-Length: 5000',
    ].join('\r\n');
    await raw(`${head}\r\n\r\n{"storeId":`, { hangUpAfterWrite: true });
    await raw(`${head}\r\n\r\n`, { hangUpAfterWrite: true });
    // Time let pass on purpose: a host that the hang-ups break would be down by then.
    await new Promise((resolve) => setTimeout(resolve, 200));
    await expectHostAlive();
  });

  it('refuses a body larger than the gateway takes with 413, without reading it', async () => {
    const tooLarge = requestLimits.bodyBytes + 1;
    const answer = await raw(
      `POST /partner_api/payment_requests HTTP/1.1\r\nHost: localhost\r\nContent-Length: ${tooLarge}\r\nConnection: close\r\n\r\n`,
    );
    expect(answer.status).toBe(413);
    expect(answer.text).toContain('"id":"request_too_large"');
    const sent = await api('POST', '/partner_api/payment_requests', `{"x":"${'a'.repeat(tooLarge)}"}`);
    expect(sent.status).toBe(413);
    await expectHostAlive();
  });

  it('refuses a request target longer than the gateway takes with 414', async () => {
    const answer = await get(`/partner_api/stores?q=${'a'.repeat(requestLimits.targetChars)}`);
    expect(answer.status).toBe(414);
    await expectHostAlive();
  });

  it('answers 400 to a request line Node cannot parse', async () => {
    const answer = await raw('GET /a b c\r\n\r\n');
    expect(answer.status).toBe(400);
    await expectHostAlive();
  });
});
