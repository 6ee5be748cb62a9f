import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { type Route, routeEntries } from '#shared/routes.ts';
import { lambdaContext } from './lambda-context.ts';

type Handler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

interface CompiledRoute {
  name: string;
  route: Route;
  pattern: RegExp;
  paramNames: string[];
}

/** API Gateway's own payload limit; larger bodies are refused before any handler runs. */
const maxBodyBytes = 10 * 1024 * 1024;

/**
 * Plays API Gateway's part on the laptop: matches a request against the route table, turns it into
 * the REST API's Lambda proxy event, calls the route's handler (the same module CDK deploys) and
 * writes its answer back. Unknown routes, oversized bodies and handler crashes answer in the
 * interface's error format, as the stage's gateway responses do.
 */
export function createApiGateway(projectRoot: string, stage = 'local') {
  const compiled = routeEntries.map(([name, route]) => compile(name, route));
  const handlers = new Map<string, Promise<Handler>>();

  const loadHandler = (route: Route): Promise<Handler> => {
    let handler = handlers.get(route.handler);
    if (!handler) {
      handler = import(pathToFileURL(join(projectRoot, route.handler)).href).then(
        (module) => module.handler as Handler,
      );
      handlers.set(route.handler, handler);
    }
    return handler;
  };

  return async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const method = request.method ?? 'GET';
    const match = matchRoute(compiled, method, url.pathname);
    if (!match) return send(response, 404, errorJson('not_found', 'Route not found'));

    const body = await readBody(request);
    if (body === undefined)
      return send(response, 413, errorJson('request_too_large', 'The request body is too large'));

    const requestId = randomUUID();
    const event = toProxyEvent({ request, url, method, body, requestId, stage, match });
    try {
      const handler = await loadHandler(match.route.route);
      const result = await handler(event, lambdaContext(match.route.name, 29_000, requestId));
      send(response, result.statusCode, result.body, result.headers);
    } catch (error) {
      console.error(`[api] ${method} ${url.pathname} failed:`, error);
      send(response, 502, errorJson('internal_error', 'Internal server error'));
    }
  };
}

function compile(name: string, route: Route): CompiledRoute {
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

interface RouteMatch {
  route: CompiledRoute;
  pathParameters: Record<string, string> | null;
}

function matchRoute(routes: CompiledRoute[], method: string, path: string): RouteMatch | undefined {
  for (const route of routes) {
    if (route.route.method !== method) continue;
    const found = route.pattern.exec(path);
    if (!found) continue;
    const values = found.slice(1).map((value) => decodeURIComponent(value));
    const pathParameters = route.paramNames.length
      ? Object.fromEntries(route.paramNames.map((name, index) => [name, values[index] ?? '']))
      : null;
    return { route, pathParameters };
  }
  return undefined;
}

async function readBody(request: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > maxBodyBytes) return undefined;
    chunks.push(chunk as Buffer);
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
  const headers: Record<string, string> = {};
  const multiValueHeaders: Record<string, string[]> = {};
  for (let i = 0; i < request.rawHeaders.length; i += 2) {
    const name = request.rawHeaders[i] as string;
    const value = request.rawHeaders[i + 1] as string;
    headers[name] = value;
    multiValueHeaders[name] = [...(multiValueHeaders[name] ?? []), value];
  }
  const query: Record<string, string> = {};
  const multiValueQuery: Record<string, string[]> = {};
  for (const [name, value] of url.searchParams) {
    query[name] = value;
    multiValueQuery[name] = [...(multiValueQuery[name] ?? []), value];
  }
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

function errorJson(id: string, message: string): string {
  return JSON.stringify({ id, message, extras: null });
}

function send(
  response: ServerResponse,
  status: number,
  body: string,
  headers: APIGatewayProxyResult['headers'] = { 'content-type': 'application/json; charset=utf-8' },
): void {
  response.writeHead(status, headers as Record<string, string>);
  response.end(body);
}
