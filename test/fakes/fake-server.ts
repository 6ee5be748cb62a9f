import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  rawBody: string;
  /** The body parsed as JSON or as a form, whichever it is; undefined when neither. */
  body: unknown;
}

export interface FakeAnswer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** What the fake does to the next calls that match: a server error, or no answer at all. */
export interface InjectedFailure {
  pathPattern: string;
  /** `lost`: done all the same, its answer lost on the way back (a 503 in its stead). */
  kind: '5xx' | 'timeout' | 'lost';
  remaining: number;
}

export interface FakeServer {
  url: string;
  /** Every request the provider's API received (control calls excluded), for contract assertions. */
  requests: FakeRequest[];
  close(): Promise<void>;
}

/**
 * A provider's API as an HTTP server on 127.0.0.1. Control calls under `/_fake/` (tests, the local
 * host's demo) script it: `POST /_fake/failures {pathPattern, kind, count}` makes the next matching
 * calls answer 503 or hang, as a provider in trouble does, or (`lost`) be done and answered 503.
 */
export async function startFakeServer(
  route: (request: FakeRequest) => Promise<FakeAnswer> | FakeAnswer,
  port = 0,
): Promise<FakeServer> {
  const requests: FakeRequest[] = [];
  const failures: InjectedFailure[] = [];
  const hanging = new Set<ServerResponse>();
  const server = createServer(async (incoming, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const rawBody = Buffer.concat(chunks).toString('utf8');
    const url = new URL(incoming.url ?? '/', 'http://fake');
    let body: unknown;
    try {
      body = rawBody ? JSON.parse(rawBody) : undefined;
    } catch {
      body = Object.fromEntries(new URLSearchParams(rawBody));
    }
    const request: FakeRequest = {
      method: incoming.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      headers: incoming.headers,
      rawBody,
      body,
    };
    let answer: FakeAnswer;
    if (request.path === '/_fake/failures' && request.method === 'POST') {
      const { pathPattern, kind, count } = body as {
        pathPattern: string;
        kind: InjectedFailure['kind'];
        count: number;
      };
      failures.push({ pathPattern, kind, remaining: count });
      answer = { status: 204 };
    } else if (request.path === '/_fake/requests') {
      answer = { status: 200, body: requests.map(({ headers, ...rest }) => ({ ...rest, headers })) };
    } else {
      if (!request.path.startsWith('/_fake/')) requests.push(request);
      const failure = failures.find((f) => f.remaining > 0 && new RegExp(f.pathPattern).test(request.path));
      if (failure) {
        failure.remaining--;
        if (failure.kind === 'timeout') {
          hanging.add(response);
          return;
        }
        if (failure.kind === 'lost') await route(request);
        answer = { status: 503, body: { code: 'service-unavailable', message: 'Service unavailable' } };
      } else {
        try {
          answer = await route(request);
        } catch (error) {
          answer = { status: 500, body: { code: 'internal-server-error', message: String(error) } };
        }
      }
    }
    const isText = typeof answer.body === 'string';
    response.writeHead(answer.status, {
      'content-type': isText ? 'text/html; charset=utf-8' : 'application/json',
      ...answer.headers,
    });
    response.end(answer.body === undefined ? '' : isText ? answer.body : JSON.stringify(answer.body));
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}`,
    requests,
    close: async () => {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Posts a callback to the service as the provider does; the service's answer status. */
export async function postCallback(
  url: string,
  body: string,
  headers: Record<string, string>,
  method: 'POST' | 'PUT' = 'POST',
): Promise<number> {
  try {
    const response = await fetch(url, {
      method,
      headers: { 'content-type': 'application/json', ...headers },
      body,
      signal: AbortSignal.timeout(10_000),
    });
    await response.text();
    return response.status;
  } catch {
    return 0;
  }
}
