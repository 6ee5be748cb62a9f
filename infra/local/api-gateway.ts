import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { endpointEntries } from '#shared/api/all-endpoints.ts';
import type { Endpoint } from '#shared/api/endpoint.ts';
import { TooManyRequests } from '#shared/errors/request.ts';
import { statusByErrorId } from '#shared/http/error-status.ts';
import { requestLimits } from '#shared/http/request-limits.ts';
import { lambdaContext } from './lambda-context.ts';
import type { PerKeyRateLimit } from './rate-limit.ts';

type Handler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

interface CompiledRoute {
  name: string;
  route: Endpoint;
  pattern: RegExp;
  paramNames: string[];
}

/**
 * The header a REST API answers every request with (infra/constructs/api.ts makes a REST API, not an
 * HTTP API, whose header is `apigw-requestid`): the id the handlers get as
 * `requestContext.requestId` and write in their logs.
 */
export const requestIdHeader = 'x-amzn-RequestId';

/**
 * Plays API Gateway's part on the laptop: matches a request against the declared endpoints, turns it into
 * the REST API's Lambda proxy event, calls the route's handler (the same module CDK deploys) and
 * writes its answer back. Unknown routes, oversized bodies and handler crashes answer in the
 * interface's error format, as the stage's gateway responses do. In front of it, the stage's WAF
 * rule on API key ids (`rateLimit`), when given; every answer carries the request id.
 */
export function createApiGateway(
  projectRoot: string,
  options: { stage?: string; rateLimit?: PerKeyRateLimit } = {},
) {
  const { stage = 'local', rateLimit } = options;
  const compiled = endpointEntries.map(([name, route]) => compile(name, route)).sort(literalSegmentsFirst);
  const handlers = new Map<string, Promise<Handler>>();

  const loadHandler = (route: Endpoint): Promise<Handler> => {
    let handler = handlers.get(route.entry);
    if (!handler) {
      handler = import(pathToFileURL(join(projectRoot, route.entry)).href).then(
        (module) => module.handler as Handler,
      );
      handlers.set(route.entry, handler);
    }
    return handler;
  };

  /**
   * Never throws: whatever a client sends (a target the URL parser refuses, a malformed escape,
   * header or parameter names like `__proto__`, a body announced and never sent), it gets an
   * answer or, once it has hung up, nothing, and the host goes on serving the others.
   */
  return async function handle(
    request: IncomingMessage,
    response: ServerResponse,
    requestId: string = randomUUID(),
  ): Promise<void> {
    const method = request.method ?? 'GET';
    let path = '?';
    response.setHeader(requestIdHeader, requestId);
    try {
      const keyId = request.headers['x-api-key-id'];
      if (rateLimit && typeof keyId === 'string' && keyId !== '') {
        const decision = rateLimit.take(keyId);
        if (!decision.allowed) {
          request.resume();
          const refusal = new TooManyRequests();
          return send(response, statusByErrorId[refusal.id], errorJson(refusal.id, refusal.message), {
            ...jsonHeaders,
            'retry-after': String(decision.retryAfterSeconds),
          });
        }
      }
      const target = parseTarget(request.url);
      if (!target) return send(response, 400, errorJson('bad_request', 'The request target is not valid'));
      path = target.pathname;
      if (target.pathname.length + target.search.length > requestLimits.targetChars)
        return send(response, 414, errorJson('bad_request', 'The request target is too long'));
      const match = matchRoute(compiled, method, target.pathname);
      if (match === 'malformed')
        return send(response, 400, errorJson('bad_request', 'The request path has a malformed escape'));
      if (!match) return send(response, 404, errorJson('not_found', 'Route not found'));

      const body = await readBody(request);
      if (body === 'aborted') return;
      if (body === 'too_large')
        return send(response, 413, errorJson('request_too_large', 'The request body is too large'), {
          ...jsonHeaders,
          connection: 'close',
        });

      const event = toProxyEvent({ request, url: target, method, body, requestId, stage, match });
      const handler = await loadHandler(match.route.route);
      const result = await handler(event, lambdaContext(match.route.name, 29_000, requestId));
      // A binary answer (a QR code's PNG) comes base64, as API Gateway takes it, and leaves as bytes.
      const bytes = result.isBase64Encoded ? Buffer.from(result.body, 'base64') : result.body;
      send(response, result.statusCode, bytes, result.headers);
    } catch (error) {
      console.error(`[api] ${method} ${path} failed (request ${requestId}):`, error);
      send(response, 502, errorJson('internal_error', 'Internal server error'));
    }
  };
}

/**
 * The request target as API Gateway reads it: always a path on this host. `new URL` alone would
 * take `//[` for an authority and throw.
 */
function parseTarget(target: string | undefined): URL | undefined {
  if (!target?.startsWith('/')) return undefined;
  try {
    return new URL(`http://localhost${target}`);
  } catch {
    return undefined;
  }
}

function compile(name: string, route: Endpoint): CompiledRoute {
  const paramNames: string[] = [];
  const source = route.path
    .split('/')
    .map((segment) => {
      const param = /^\{(\w+)\}$/.exec(segment);
      if (!param?.[1]) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      paramNames.push(param[1]);
      return '([^/]+)';
    })
    .join('/');
  return { name, route, pattern: new RegExp(`^${source}/?$`), paramNames };
}

/**
 * API Gateway prefers a literal segment to a path variable (`/messages/account` over
 * `/messages/{id}`), whatever order the endpoints are declared in: so does the host.
 */
function literalSegmentsFirst(a: CompiledRoute, b: CompiledRoute): number {
  const kinds = (route: CompiledRoute) =>
    route.route.path.split('/').map((segment) => (segment.startsWith('{') ? 1 : 0));
  const [left, right] = [kinds(a), kinds(b)];
  for (let index = 0; index < Math.min(left.length, right.length); index++) {
    const difference = (left[index] ?? 0) - (right[index] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}

interface RouteMatch {
  route: CompiledRoute;
  pathParameters: Record<string, string> | null;
}

function matchRoute(
  routes: CompiledRoute[],
  method: string,
  path: string,
): RouteMatch | 'malformed' | undefined {
  for (const route of routes) {
    if (route.route.method !== method) continue;
    const found = route.pattern.exec(path);
    if (!found) continue;
    const values = found.slice(1).map(decodeSegment);
    if (values.includes(undefined)) return 'malformed';
    const pathParameters = route.paramNames.length
      ? Object.fromEntries(route.paramNames.map((name, index) => [name, values[index] as string]))
      : null;
    return { route, pathParameters };
  }
  return undefined;
}

const decodeSegment = (segment: string): string | undefined => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
};

/**
 * The body, or why there is none to hand on: larger than the gateway takes (refused from its
 * Content-Length before reading when announced), or the client hung up before sending it all.
 */
async function readBody(request: IncomingMessage): Promise<string | 'too_large' | 'aborted'> {
  if (Number(request.headers['content-length'] ?? 0) > requestLimits.bodyBytes) {
    request.resume();
    return 'too_large';
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of request) {
      size += (chunk as Buffer).length;
      if (size > requestLimits.bodyBytes) return 'too_large';
      chunks.push(chunk as Buffer);
    }
  } catch {
    return 'aborted';
  }
  return Buffer.concat(chunks).toString('utf8');
}

function toProxyEvent(input: {
  request: IncomingMessage;
  url: URL;
  method: string;
  body: string;
  requestId: string;
  stage: string;
  match: RouteMatch;
}): APIGatewayProxyEvent {
  const { request, url, method, body, requestId, stage, match } = input;
  // Built with fromEntries, so a name like `__proto__` or `toString` is an own property, as in
  // the JSON event Lambda gets, never a look-up into Object.prototype.
  const headerPairs: [string, string][] = [];
  for (let i = 0; i < request.rawHeaders.length; i += 2)
    headerPairs.push([request.rawHeaders[i] as string, request.rawHeaders[i + 1] as string]);
  const headers = Object.fromEntries(headerPairs);
  const multiValueHeaders = Object.fromEntries(grouped(headerPairs));
  const queryPairs = [...url.searchParams];
  const query = Object.fromEntries(queryPairs);
  const multiValueQuery = Object.fromEntries(grouped(queryPairs));
  const hasQuery = Object.keys(query).length > 0;
  return {
    resource: match.route.route.path,
    path: url.pathname,
    httpMethod: method,
    headers,
    multiValueHeaders,
    queryStringParameters: hasQuery ? query : null,
    multiValueQueryStringParameters: hasQuery ? multiValueQuery : null,
    pathParameters: match.pathParameters,
    stageVariables: null,
    body: body === '' ? null : body,
    isBase64Encoded: false,
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      authorizer: null,
      protocol: `HTTP/${request.httpVersion}`,
      httpMethod: method,
      path: `/${stage}${url.pathname}`,
      stage,
      requestId,
      requestTimeEpoch: Date.now(),
      resourceId: match.route.name,
      resourcePath: match.route.route.path,
      identity: {
        accessKey: null,
        accountId: null,
        apiKey: null,
        apiKeyId: null,
        caller: null,
        clientCert: null,
        cognitoAuthenticationProvider: null,
        cognitoAuthenticationType: null,
        cognitoIdentityId: null,
        cognitoIdentityPoolId: null,
        principalOrgId: null,
        sourceIp: request.socket.remoteAddress ?? '127.0.0.1',
        user: null,
        userAgent: headers['User-Agent'] ?? headers['user-agent'] ?? null,
        userArn: null,
      },
    },
  };
}

function grouped(pairs: [string, string][]): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const [name, value] of pairs) groups.set(name, [...(groups.get(name) ?? []), value]);
  return groups;
}

const jsonHeaders = { 'content-type': 'application/json; charset=utf-8' };

function errorJson(id: string, message: string): string {
  return JSON.stringify({ id, message, extras: null });
}

function send(
  response: ServerResponse,
  status: number,
  body: string | Buffer,
  headers: APIGatewayProxyResult['headers'] = jsonHeaders,
): void {
  if (response.headersSent || response.destroyed) return;
  response.writeHead(status, headers as Record<string, string>);
  response.end(body);
}
