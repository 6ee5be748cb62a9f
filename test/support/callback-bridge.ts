import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Context } from 'aws-lambda';
import { handler as payoutCallback } from '#functions/provider-callbacks/receive-payout-callback.ts';
import { handler as collectionCallback } from '#functions/provider-callbacks/receive-provider-callback.ts';
import { handler as smileIdCallback } from '#functions/provider-callbacks/receive-smile-id-callback.ts';
import { proxyEvent } from '#test/support/proxy-event.ts';

/** The API functions' 10 s timeout: a cold first call on a loaded machine must not be cut short. */
const context = { awsRequestId: 'bridge', getRemainingTimeInMillis: () => 10_000 } as Context;

export interface BridgedCallback {
  path: string;
  method: string;
  status: number;
  body: string;
}

/**
 * The service's provider-callback endpoints (and Smile ID's result route) over real HTTP, for integration tests without the
 * local host: each request becomes the API Gateway event the deployed function would get.
 */
export async function startCallbackBridge() {
  const answered: BridgedCallback[] = [];
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const url = new URL(request.url ?? '/', 'http://bridge');
    if (url.pathname === '/identity_callbacks/smileid') {
      const event = proxyEvent({
        httpMethod: request.method ?? 'POST',
        path: url.pathname,
        resource: url.pathname,
        headers: { 'content-type': 'application/json' },
        body: Buffer.concat(chunks).toString('utf8'),
      });
      const result = await smileIdCallback(event, context);
      answered.push({ path: url.pathname, method: 'POST', status: result.statusCode, body: result.body });
      response.writeHead(result.statusCode, { 'content-type': 'application/json' }).end(result.body);
      return;
    }
    const match = url.pathname.match(/^\/provider_callbacks\/([^/]+)(\/payouts)?$/);
    if (!match) {
      response.writeHead(404).end();
      return;
    }
    const headers = Object.fromEntries(
      Object.entries(request.headers).map(([name, value]) => [name, String(value)]),
    );
    const query = Object.fromEntries(url.searchParams);
    const event = proxyEvent({
      httpMethod: request.method ?? 'POST',
      path: url.pathname,
      resource: match[2] ? '/provider_callbacks/{provider}/payouts' : '/provider_callbacks/{provider}',
      headers,
      pathParameters: { provider: match[1] as string },
      queryStringParameters: Object.keys(query).length > 0 ? query : null,
      body: Buffer.concat(chunks).toString('utf8'),
    });
    const result = await (match[2] ? payoutCallback : collectionCallback)(event, context);
    answered.push({
      path: url.pathname,
      method: event.httpMethod,
      status: result.statusCode,
      body: result.body,
    });
    response.writeHead(result.statusCode, { 'content-type': 'application/json' }).end(result.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    answered,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
