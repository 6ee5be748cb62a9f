import middy, { type MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type { output, ZodMiniType as ZodType } from 'zod/mini';
import type { CallerKind, JsonEndpoint } from '#shared/api/endpoint.ts';
import type { Caller } from '#shared/domain/caller.ts';
import { DomainError } from '#shared/errors/domain-error.ts';
import { OperatorUnavailable } from '#shared/errors/providers.ts';
import { BadRequest, RequestTooLarge } from '#shared/errors/request.ts';
import { authenticate } from '#shared/http/authenticate.ts';
import { statusByErrorId } from '#shared/http/error-status.ts';
import { publicBaseUrl } from '#shared/http/public-base-url.ts';
import { requestLimits } from '#shared/http/request-limits.ts';
import { parseInput } from '#shared/http/validation.ts';
import { inRequest, logger } from '#shared/logger.ts';
import { publishMetrics } from '#shared/metrics.ts';

/** The event once the wrapper's middlewares have run. */
export interface ApiEvent extends APIGatewayProxyEvent {
  /** Header names lower-cased (API Gateway keeps the caller's spelling). */
  normalizedHeaders?: Record<string, string | undefined>;
  jsonBody?: unknown;
  caller?: Caller;
}

type Request = middy.Request<ApiEvent, APIGatewayProxyResult, Error, Context>;

type Parsed<S> = S extends ZodType ? output<S> : undefined;

export interface ApiRequest<E extends JsonEndpoint, C> {
  params: Parsed<E['params']>;
  query: Parsed<E['query']>;
  body: Parsed<E['body']>;
  caller: C;
  headers: Record<string, string | undefined>;
  /** The body exactly as received, for signatures computed over its bytes. */
  rawBody: string;
  /** Where this service is reached from outside, for links it hands out (hosted pages, callbacks). */
  baseUrl: string;
  requestId: string;
  context: Context;
}

type CallerOf<E extends JsonEndpoint> = E['caller'] extends 'public' ? undefined : Caller;

/**
 * Wraps a domain operation into the handler of `endpoint`: JSON body (400), authentication and
 * rights for its caller kind (401/403), validation with its schemas (422), then the operation, whose result
 * is answered as JSON with the endpoint's success status (200 unless it declares another). Errors become the interface's `{id, message, extras}` body (or `{message}`
 * alone, for the few the interface answers so) here and only here; anything that is not a domain
 * error is logged and answered 500 without internals.
 */
export function apiHandler<const E extends JsonEndpoint, T>(
  endpoint: E,
  operation: (request: ApiRequest<E, CallerOf<E>>) => Promise<T>,
) {
  const handler = middy<ApiEvent, APIGatewayProxyResult, Error, Context>()
    .use(metricsPublished())
    .use(errorResponses())
    .use(normalizeHeaders())
    .use(jsonBody())
    .use(authentication(endpoint.caller))
    .handler(async (event, context) => {
      const result = await operation({
        params: (endpoint.params
          ? parseInput(endpoint.params, event.pathParameters ?? {})
          : undefined) as Parsed<E['params']>,
        query: (endpoint.query
          ? parseInput(endpoint.query, event.queryStringParameters ?? {})
          : undefined) as Parsed<E['query']>,
        body: (endpoint.body ? parseInput(endpoint.body, event.jsonBody) : undefined) as Parsed<E['body']>,
        caller: event.caller as CallerOf<E>,
        headers: event.normalizedHeaders ?? {},
        rawBody: rawBody(event),
        baseUrl: publicBaseUrl(event),
        requestId: event.requestContext?.requestId ?? context.awsRequestId,
        context,
      });
      return jsonResponse(endpoint.status ?? 200, result);
    });
  // Kept on the handler so a test can check each entry file serves its own endpoint.
  return Object.assign(inRequestOf(handler), { endpoint });
}

/** The handler, run as part of its API Gateway request: its log lines carry the request id. */
export const inRequestOf =
  <E extends APIGatewayProxyEvent, R>(handler: (event: E, context: Context) => Promise<R>) =>
  (event: E, context: Context): Promise<R> =>
    inRequest(event.requestContext?.requestId ?? context?.awsRequestId ?? '', () => handler(event, context));

export { publicBaseUrl };

export function rawBody(event: APIGatewayProxyEvent): string {
  if (!event.body) return '';
  return event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
}

/** An answer already serialized, sent byte for byte (an idempotent replay of a first answer). */
export class JsonText {
  constructor(readonly text: string) {}
}

export function jsonResponse(statusCode: number, body: unknown): APIGatewayProxyResult {
  return {
    statusCode,
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: body instanceof JsonText ? body.text : JSON.stringify(body),
  };
}

export function errorBody(
  error: DomainError,
): { id: string; message: string; extras: unknown } | { message: string } {
  if (error.messageOnly) return { message: error.message };
  return { id: error.id, message: error.message, extras: error.extras };
}

export function normalizeHeaders(): MiddlewareObj<ApiEvent, APIGatewayProxyResult> {
  return {
    before: (request) => {
      const headers: Record<string, string | undefined> = {};
      for (const [name, value] of Object.entries(request.event.headers ?? {}))
        headers[name.toLowerCase()] = value;
      request.event.normalizedHeaders = headers;
    },
  };
}

/**
 * A body that is present must be JSON; an empty body is "no body" (`undefined`). One over the
 * service's limit is refused unread, as the WAF and the local host refuse it before the handler:
 * the 413 holds even where a request reaches the function another way.
 */
export function jsonBody(): MiddlewareObj<ApiEvent, APIGatewayProxyResult> {
  return {
    before: (request) => {
      const text = rawBody(request.event);
      if (text === '') return;
      if (Buffer.byteLength(text) > requestLimits.bodyBytes) throw new RequestTooLarge();
      try {
        request.event.jsonBody = JSON.parse(text);
      } catch {
        throw new BadRequest('The request body is not valid JSON');
      }
    },
  };
}

export function authentication(caller: CallerKind): MiddlewareObj<ApiEvent, APIGatewayProxyResult> {
  return {
    before: async (request) => {
      if (caller === 'public') return;
      request.event.caller = await authenticate(request.event.normalizedHeaders ?? {}, caller);
    },
  };
}

export function errorResponses(): MiddlewareObj<ApiEvent, APIGatewayProxyResult> {
  return {
    onError: (request: Request) => {
      const { error } = request;
      if (error instanceof DomainError) {
        const response = jsonResponse(statusByErrorId[error.id], errorBody(error));
        // An error that knows when to come back says so, as a throttle's 429 does.
        if (error instanceof OperatorUnavailable)
          response.headers = { ...response.headers, 'retry-after': String(error.retryAfterSeconds) };
        request.response = response;
        return;
      }
      logger.error('unexpected error', {
        error: error as Error,
        requestId: request.event.requestContext?.requestId,
        path: request.event.path,
      });
      request.response = jsonResponse(500, {
        id: 'internal_error',
        message: 'Internal server error',
        extras: null,
      });
    },
  };
}

/** Writes the invocation's metrics as it ends, answered or failed (first in, so it runs last). */
export function metricsPublished(): MiddlewareObj<ApiEvent, APIGatewayProxyResult> {
  return { after: publishMetrics, onError: publishMetrics };
}
