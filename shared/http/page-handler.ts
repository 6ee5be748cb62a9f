import middy, { type MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyResult, Context } from 'aws-lambda';
import type { PageEndpointName } from '#shared/api/all-endpoints.ts';
import type { Language } from '#shared/domain/languages.ts';
import { DomainError } from '#shared/errors/domain-error.ts';
import { BadRequest, ValidationFailed } from '#shared/errors/request.ts';
import {
  type ApiEvent,
  inRequestOf,
  metricsPublished,
  normalizeHeaders,
  publicBaseUrl,
  rawBody,
} from '#shared/http/api-handler.ts';
import { statusByErrorId } from '#shared/http/error-status.ts';
import { logger } from '#shared/logger.ts';
import { errorPage } from '#shared/pages/error-page.ts';
import { negotiateLanguage } from '#shared/pages/language.ts';
import { contentSecurityPolicy } from '#shared/pages/layout.ts';

/** The event once the page wrapper's middlewares have run. */
export interface PageEvent extends ApiEvent {
  form?: Record<string, string>;
  language?: Language;
}

export interface PageRequest {
  method: string;
  params: Record<string, string>;
  query: Record<string, string>;
  /** A posted form's fields, first value of each; empty for a GET. */
  form: Record<string, string>;
  language: Language;
  /**
   * The language was chosen on the page (`?lang=`) rather than from the browser's settings: links
   * and forms to the service's own pages carry it on.
   */
  languagePinned: boolean;
  headers: Record<string, string | undefined>;
  baseUrl: string;
  requestId: string;
  /** The caller's address as API Gateway saw it (per-address limits). */
  sourceIp: string;
  context: Context;
}

/**
 * Headers a group of pages answers with instead of the hosted pages' own. The dashboard's forms
 * need `Referrer-Policy: same-origin`: under `no-referrer` a browser posts `Origin: null`, and
 * the dashboard refuses a post whose Origin is not its own.
 */
export interface PageOptions {
  headers?: Readonly<Record<string, string>>;
  /** A form whose fields may be longer than `maxFormFieldChars` (a webhook's URL). */
  maxFormFieldChars?: number;
}

/** A file to download (a QR code): its bytes, type and the name a browser saves it under. */
export interface DownloadFile {
  body: string | Buffer;
  contentType: string;
  fileName: string;
}

export type PageResult =
  | { statusCode: number; html: string }
  | { redirect: string; setCookie?: string | undefined }
  | { download: DownloadFile };

export const htmlPage = (html: string, statusCode = 200): PageResult => ({ statusCode, html });
/** `setCookie`: one Set-Cookie value to send along, e.g. what the browser must present next time. */
export const redirectTo = (location: string, setCookie?: string): PageResult => ({
  redirect: location,
  setCookie,
});

type Request = middy.Request<PageEvent, APIGatewayProxyResult, Error, Context>;

/**
 * Headers of every page and every redirect: the page's policy (no scripts at all, only its own
 * stylesheet), never framed (clickjacking a pay button), no Referer (page URLs carry the payment
 * id, and the payer leaves for the provider's and the merchant's sites), never cached (a page
 * shows a payment's live status).
 */
const pageHeaders = {
  'content-security-policy': contentSecurityPolicy,
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
};

export function htmlResponse(
  statusCode: number,
  html: string,
  extraHeaders: PageOptions['headers'] = {},
): APIGatewayProxyResult {
  return {
    statusCode,
    headers: { 'content-type': 'text/html; charset=utf-8', ...pageHeaders, ...extraHeaders },
    body: html,
  };
}

/**
 * A download: `attachment`, so the browser saves it rather than showing it; bytes travel base64
 * (API Gateway turns them back into bytes, `binaryMediaTypes` in infra/constructs/api.ts).
 */
export function downloadResponse(file: DownloadFile, extraHeaders: PageOptions['headers'] = {}) {
  const binary = typeof file.body !== 'string';
  return {
    statusCode: 200,
    headers: {
      ...pageHeaders,
      ...extraHeaders,
      'content-type': file.contentType,
      'content-disposition': `attachment; filename="${file.fileName.replace(/[^\w.-]/g, '_')}"`,
    },
    body: binary ? (file.body as Buffer).toString('base64') : (file.body as string),
    isBase64Encoded: binary,
  } satisfies APIGatewayProxyResult;
}

/** 303 whatever the method: after a POST the browser must GET the next page, never post again. */
export function redirectResponse(
  location: string,
  setCookie?: string,
  extraHeaders: PageOptions['headers'] = {},
): APIGatewayProxyResult {
  return {
    statusCode: 303,
    headers: { location, ...pageHeaders, ...extraHeaders, ...(setCookie ? { 'set-cookie': setCookie } : {}) },
    body: '',
  };
}

/**
 * Wraps a public HTML page: headers lower-cased, the page language, a posted form, then the page
 * function, whose result is an HTML page or a 303. Errors become a page in the payer's language
 * here and only here: a domain error with its status (404 for an unknown payment), anything else
 * logged with the request id and answered 500 without internals. A page validates nothing, so it
 * names its endpoint instead of importing the declaration: no schema, and no zod, in its bundle.
 */
export function pageHandler(
  endpoint: PageEndpointName,
  render: (request: PageRequest) => Promise<PageResult>,
  options: PageOptions = {},
) {
  const handler = middy<PageEvent, APIGatewayProxyResult, Error, Context>()
    .use(metricsPublished())
    .use(errorPages(endpoint, options))
    .use(normalizeHeaders())
    .use(pageLanguage())
    .use(formBody(options.maxFormFieldChars))
    .handler(async (event, context) => {
      const query = (event.queryStringParameters ?? {}) as Record<string, string>;
      const result = await render({
        method: event.httpMethod,
        params: (event.pathParameters ?? {}) as Record<string, string>,
        query,
        form: event.form ?? {},
        language: event.language ?? 'fr',
        languagePinned: query.lang?.trim().toLowerCase() === event.language,
        headers: event.normalizedHeaders ?? {},
        baseUrl: publicBaseUrl(event),
        requestId: requestIdOf(event, context),
        sourceIp: event.requestContext?.identity?.sourceIp ?? '',
        context,
      });
      if ('download' in result) return downloadResponse(result.download, options.headers);
      return 'redirect' in result
        ? redirectResponse(result.redirect, result.setCookie, options.headers)
        : htmlResponse(result.statusCode, result.html, options.headers);
    });
  // Kept on the handler so a test can check each entry file serves its own endpoint.
  return Object.assign(inRequestOf(handler), { endpointName: endpoint });
}

const requestIdOf = (event: PageEvent, context: Context | undefined) =>
  event.requestContext?.requestId ?? context?.awsRequestId ?? '';

function languageOf(event: PageEvent): Language {
  return negotiateLanguage(
    event.normalizedHeaders?.['accept-language'] ?? event.headers?.['Accept-Language'],
    event.queryStringParameters?.lang,
  );
}

export function pageLanguage(): MiddlewareObj<PageEvent, APIGatewayProxyResult> {
  return {
    before: (request) => {
      request.event.language = languageOf(request.event);
    },
  };
}

/**
 * Longer than any field of these pages takes (the phone input stops at 32 characters): a longer
 * value was not typed into one of them, and is refused rather than echoed back into the page.
 */
export const maxFormFieldChars = 64;

/** An HTML form's body; a body of any other type is not something these pages ever send. */
export function formBody(maxChars = maxFormFieldChars): MiddlewareObj<PageEvent, APIGatewayProxyResult> {
  return {
    before: (request) => {
      const text = rawBody(request.event);
      if (text === '') return;
      const type = request.event.normalizedHeaders?.['content-type'] ?? '';
      if (!/^application\/x-www-form-urlencoded\s*(;|$)/i.test(type)) {
        throw new BadRequest('The request body is not a form');
      }
      const form: Record<string, string> = {};
      for (const [name, value] of new URLSearchParams(text)) {
        if (value.length > maxChars) throw new BadRequest(`The form field ${name} is too long`);
        if (!Object.hasOwn(form, name)) form[name] = value;
      }
      request.event.form = form;
    },
  };
}

export function errorPages(
  endpoint: string,
  options: PageOptions = {},
): MiddlewareObj<PageEvent, APIGatewayProxyResult> {
  return {
    onError: (request: Request) => {
      const { error, event } = request;
      const language = event.language ?? languageOf(event);
      const requestId = requestIdOf(event, request.context);
      if (error instanceof DomainError) {
        // A form that does not validate is the payer's doing, like any other bad request.
        const statusCode = error instanceof ValidationFailed ? 400 : statusByErrorId[error.id];
        request.response = htmlResponse(
          statusCode,
          errorPage({ statusCode, language, requestId }),
          options.headers,
        );
        return;
      }
      logger.error('unexpected error', {
        error: error as Error,
        requestId,
        endpoint,
        route: `${event.httpMethod} ${event.resource}`,
        path: event.path,
      });
      request.response = htmlResponse(
        500,
        errorPage({ statusCode: 500, language, requestId }),
        options.headers,
      );
    },
  };
}
