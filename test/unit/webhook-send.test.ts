import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveryIdFor, resendIdAt } from '#shared/data/webhook-delivery.ts';
import { uuidPattern } from '#shared/domain/ids.ts';
import {
  defaultRetryBaseSeconds,
  retryBaseSeconds,
  retryDelaySeconds,
} from '#shared/domain/webhook-retry.ts';
import type { WebhookUrlPolicy } from '#shared/domain/webhook-url.ts';
import { postWebhook } from '#shared/operations/webhook-send.ts';

describe('the retry schedule', () => {
  it('waits 1, 5 and 25 minutes after the first three failures in production', () => {
    expect([1, 2, 3].map((attempt) => retryDelaySeconds(attempt, defaultRetryBaseSeconds))).toEqual([
      60, 300, 1_500,
    ]);
  });

  it('scales with the base, and never beyond what SQS accepts as a visibility timeout', () => {
    expect([1, 2, 3].map((attempt) => retryDelaySeconds(attempt, 1))).toEqual([1, 5, 25]);
    expect(retryDelaySeconds(20, 60)).toBe(43_200);
  });

  it('takes its base from the environment, falling back to the default on anything unusable', () => {
    expect(retryBaseSeconds('2')).toBe(2);
    expect(retryBaseSeconds(undefined)).toBe(defaultRetryBaseSeconds);
    expect(retryBaseSeconds('')).toBe(defaultRetryBaseSeconds);
    expect(retryBaseSeconds('soon')).toBe(defaultRetryBaseSeconds);
    expect(retryBaseSeconds('-1')).toBe(defaultRetryBaseSeconds);
  });
});

describe('a delivery id', () => {
  const at = '2026-11-23T03:48:01.123Z';
  const event = (id: string, createdAt = at) => ({ id, createdAt });

  it('is a UUID derived from the event and the subscription, so a second fan-out finds the first', () => {
    const id = deliveryIdFor(event('TRANSACTION_COMPLETED:tx-1'), 'sub-1');
    expect(id).toMatch(uuidPattern);
    expect(deliveryIdFor(event('TRANSACTION_COMPLETED:tx-1'), 'sub-1')).toBe(id);
    expect(deliveryIdFor(event('TRANSACTION_COMPLETED:tx-1'), 'sub-2')).not.toBe(id);
    expect(deliveryIdFor(event('TRANSACTION_COMPLETED:tx-2'), 'sub-1')).not.toBe(id);
  });

  it('sorts by the time of its event, then re-sends by theirs, to the millisecond', () => {
    const times = ['2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.001Z', '2026-06-30T12:00:00.000Z', at];
    const ids = times.map((time, i) => deliveryIdFor(event(`E:${9 - i}`, time), 'sub-1'));
    expect([...ids].sort()).toEqual(ids);
    const resent = resendIdAt('2026-11-23T03:48:01.124Z');
    expect(resent).toMatch(uuidPattern);
    expect(resent > (ids.at(-1) as string)).toBe(true);
    expect(resendIdAt(at)).not.toBe(resendIdAt(at));
  });
});

describe('posting a webhook', () => {
  type Answer = (request: IncomingMessage, body: string, response: ServerResponse) => void;
  const received: { headers: IncomingMessage['headers']; body: string }[] = [];
  let answer: Answer = (_request, _body, response) => response.end();
  let server: Server;
  let base = '';
  const loopbackAllowed: WebhookUrlPolicy = { requireHttps: false, allowLoopback: true };
  const post = (path: string, options: { timeoutMs?: number; policy?: WebhookUrlPolicy } = {}) =>
    postWebhook(
      `${base}${path}`,
      '{"id":"tx-1"}',
      { 'Svc-Event': 'TRANSACTION_COMPLETED' },
      { timeoutMs: options.timeoutMs ?? 2_000, policy: options.policy ?? loopbackAllowed },
    );

  beforeAll(async () => {
    server = createServer(async (request, response) => {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const body = Buffer.concat(chunks).toString('utf8');
      received.push({ headers: request.headers, body });
      answer(request, body, response);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('sends the body as JSON with the given headers, and records the status and the answer', async () => {
    answer = (_request, _body, response) => response.writeHead(204).end();
    const attempt = await post('/hook');
    expect(attempt).toMatchObject({ status: 204, responseExcerpt: '' });
    expect(attempt.error).toBeUndefined();
    expect(attempt.durationMs).toBeGreaterThanOrEqual(0);
    const last = received.at(-1);
    expect(last?.body).toBe('{"id":"tx-1"}');
    expect(last?.headers['content-type']).toBe('application/json');
    expect(last?.headers['svc-event']).toBe('TRANSACTION_COMPLETED');
  });

  it('keeps the first KB of the answer only', async () => {
    answer = (_request, _body, response) => response.writeHead(200).end('x'.repeat(5_000));
    const attempt = await post('/hook');
    expect(attempt.status).toBe(200);
    expect(attempt.responseExcerpt).toBe('x'.repeat(1024));
  });

  it('does not follow a redirect: the 3xx is the outcome', async () => {
    answer = (request, _body, response) => {
      if (request.url === '/moved') response.writeHead(302, { location: `${base}/hook` }).end();
      else response.writeHead(200).end('followed');
    };
    const before = received.length;
    const attempt = await post('/moved');
    expect(attempt.status).toBe(302);
    expect(received.length).toBe(before + 1);
  });

  it('gives up on a receiver that does not answer in time', async () => {
    answer = () => undefined;
    const attempt = await post('/hang', { timeoutMs: 300 });
    expect(attempt.status).toBeUndefined();
    expect(attempt.error).toBe('No answer within 300 ms');
    expect(attempt.durationMs).toBeGreaterThanOrEqual(250);
    expect(attempt.durationMs).toBeLessThan(2_000);
  });

  it('records a connection that fails', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const attempt = await postWebhook(
      `http://127.0.0.1:${port}/`,
      '{}',
      {},
      {
        timeoutMs: 2_000,
        policy: loopbackAllowed,
      },
    );
    expect(attempt.status).toBeUndefined();
    expect(attempt.error).toMatch(/ECONNREFUSED/);
  });

  it('refuses an internal address without connecting, by its URL or by what its name resolves to', async () => {
    const before = received.length;
    const deployed: WebhookUrlPolicy = { requireHttps: false, allowLoopback: false };
    expect((await post('/hook', { policy: deployed })).error).toMatch(/^URL refused: .*loopback/);
    const rebound = await postWebhook(
      `http://hooks.shop.example:${new URL(base).port}/`,
      '{}',
      {},
      {
        timeoutMs: 2_000,
        policy: deployed,
        resolve: async () => [
          { address: '203.0.113.7', family: 4 },
          { address: '127.0.0.1', family: 4 },
        ],
      },
    );
    expect(rebound.status).toBeUndefined();
    expect(rebound.error).toBe('Address refused for hooks.shop.example: 127.0.0.1 is a loopback address');
    expect(received.length).toBe(before);
  });

  it('connects to the address it checked, not to what the name resolves to later', async () => {
    answer = (_request, _body, response) => response.writeHead(200).end('pinned');
    const attempt = await postWebhook(
      `http://hooks.shop.example:${new URL(base).port}/hook`,
      '{}',
      {},
      {
        timeoutMs: 2_000,
        policy: loopbackAllowed,
        resolve: async () => [{ address: '127.0.0.1', family: 4 }],
      },
    );
    expect(attempt).toMatchObject({ status: 200, responseExcerpt: 'pinned' });
    expect(received.at(-1)?.headers.host).toBe(`hooks.shop.example:${new URL(base).port}`);
  });
});
