import { createHmac, randomUUID } from 'node:crypto';
import { Agent, request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestIdHeader } from '#infra/local/api-gateway.ts';
import { admin, type LocalHost, newDataDir, startLocalHost } from '#test/support/local-host.ts';

/**
 * What the stage's API Gateway and WAF do that the local host plays too: the per-key rate limit,
 * idle connections kept open, and a request id on every answer that the logs carry. A host of its
 * own, with a per-key limit small enough to reach in a few calls.
 */
const limit = 10;
let host: LocalHost;
let baseUrl: string;
let demoKey: Record<string, string>;

beforeAll(async () => {
  host = await startLocalHost(newDataDir(), { API_KEY_RATE_LIMIT_PER_MINUTE: String(limit), MQTT_PORT: '0' });
  baseUrl = host.config.baseUrl;
  demoKey = { 'X-API-KEY-ID': host.config.demo.apiKeyId, 'X-API-KEY': host.config.demo.apiKey };
});

afterAll(async () => {
  await host?.stop();
});

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('the per-key rate limit', () => {
  it('answers 429 with Retry-After and the error body to a key past its limit, while another key is served', async () => {
    expect(host.config.limits).toEqual({ apiKeyRequestsPerMinute: limit });
    const { keyId, key } = await admin(host.dataDir, 'create-key', '--business', host.config.demo.businessId);
    const other = { 'X-API-KEY-ID': keyId as string, 'X-API-KEY': key as string };
    const stores = (headers: Record<string, string>) => fetch(`${baseUrl}/partner_api/stores`, { headers });

    const served = [];
    for (let call = 0; call < limit; call++) served.push((await stores(demoKey)).status);
    expect(served).toEqual(Array(limit).fill(200));

    const refused = await stores(demoKey);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({
      id: 'too_many_requests',
      message: 'Too many requests',
      extras: null,
    });
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.headers.get(requestIdHeader)).toMatch(uuidPattern);

    // The key id is counted whatever its case, as the WAF rule lower-cases it.
    const shouted = await stores({ ...demoKey, 'X-API-KEY-ID': host.config.demo.apiKeyId.toUpperCase() });
    expect(shouted.status).toBe(429);

    const otherKey = await stores(other);
    expect(otherKey.status).toBe(200);
    // Requests without a key id (pages, documents) are not counted against any key.
    expect((await fetch(`${baseUrl}/openapi.json`)).status).toBe(200);
  });
});

describe('the request id', () => {
  it('is on every answer, each its own: JSON, errors, unknown routes, pages, documents and the local tools', async () => {
    const answers = await Promise.all([
      fetch(`${baseUrl}/partner_api/stores`, { headers: { 'X-API-KEY-ID': randomUUID(), 'X-API-KEY': 'x' } }),
      fetch(`${baseUrl}/partner_api/stores/${randomUUID()}/balance`, {
        headers: { 'X-API-KEY-ID': randomUUID(), 'X-API-KEY': 'x' },
      }),
      fetch(`${baseUrl}/no/such/route`),
      fetch(`${baseUrl}/payment/${randomUUID()}`),
      fetch(`${baseUrl}/openapi.json`),
      fetch(`${baseUrl}/docs`),
      fetch(`${baseUrl}/`),
      fetch(`${baseUrl}/partner_api/payment_requests`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: 'x'.repeat(20_000),
      }),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([401, 401, 404, 404, 200, 200, 200, 413]);
    const ids = answers.map((answer) => answer.headers.get(requestIdHeader));
    for (const id of ids) expect(id).toMatch(uuidPattern);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('is on the 400 of a request the server cannot parse, which reaches no handler', async () => {
    const { hostname, port } = new URL(baseUrl);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), hostname === 'localhost' ? '127.0.0.1' : hostname);
      let text = '';
      socket.on('data', (chunk) => {
        text += chunk.toString('latin1');
      });
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
      socket.write('GET / HTTP/1.1\r\nHost: localhost\r\nBad Header Without Colon\r\n\r\n');
    });
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toMatch(new RegExp(`\r\n${requestIdHeader}: [0-9a-f-]{36}\r\n`, 'i'));
  });

  it('is in the log lines the request wrote', async () => {
    const body = JSON.stringify({ not: 'a callback' });
    const signature = createHmac('sha256', host.config.sandbox.providerSecret).update(body).digest('hex');
    const answer = await fetch(`${baseUrl}/provider_callbacks/wave`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-sandbox-signature': signature },
      body,
    });
    expect(answer.status).toBe(401);
    const requestId = answer.headers.get(requestIdHeader) as string;
    const line = await logLineWith(requestId);
    expect(line).toMatchObject({
      message: 'sandbox callback refused: signed, but its body is not a callback',
      request_id: requestId,
    });
  });
});

async function logLineWith(requestId: string): Promise<Record<string, unknown>> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const line = host
      .output()
      .split('\n')
      .find((text) => text.includes(requestId) && text.trimStart().startsWith('{'));
    if (line) return JSON.parse(line) as Record<string, unknown>;
    if (Date.now() > deadline)
      throw new Error(`no log line with ${requestId}:\n${host.output().slice(-3000)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('idle connections', () => {
  it('keeps a connection a client leaves idle for 10 s: the next call reuses it and is answered', {
    timeout: 60_000,
  }, async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const first = await get(agent, '/openapi.json');
      expect(first).toMatchObject({ status: 200, reusedSocket: false });
      expect(first.keepAlive).toMatch(/timeout=(6[0-9]|[7-9][0-9]|\d{3,})/);
      await new Promise((resolve) => setTimeout(resolve, 10_000));
      const second = await get(agent, '/openapi.json');
      expect(second).toMatchObject({ status: 200, reusedSocket: true });
    } finally {
      agent.destroy();
    }
  });
});

function get(
  agent: Agent,
  path: string,
): Promise<{ status: number; reusedSocket: boolean; keepAlive: string | undefined }> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(`${baseUrl}${path}`, { agent }, (response) => {
      response.resume();
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          reusedSocket: outgoing.reusedSocket,
          keepAlive: response.headers['keep-alive'] as string | undefined,
        }),
      );
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}
