import middy, { type MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyResult, Context } from 'aws-lambda';
import type { output, ZodMiniType as ZodType } from 'zod/mini';
import type { PageEndpointName } from '#shared/api/all-endpoints.ts';
import type { PageEndpoint } from '#shared/api/endpoint.ts';
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

/** A field of a posted form that its declared schema refuses: missing (or empty), or not one it takes. */
export interface FormFieldError {
  readonly field: string;
  readonly problem: 'missing' | 'invalid';
}

/** A page's declared form, as its fields come out of the schema; no fields for a page that declares none. */
export type FieldsOf<E> = E extends { readonly form: infer Form extends ZodType }
  ? output<Form>
  : Record<string, never>;

export interface PageRequest<Fields extends object = Record<string, never>> {
  method: string;
  params: Record<string, string>;
  query: Record<string, string>;
  /**
   * The posted form as it came, first value of each; empty for a GET. Only the wrappers read it
   * (the session's CSRF token) and the payers' pages, which declare no schema: a page that declares
   * its form reads `fields`.
   */
  form: Record<string, string>;
  /**
   * The declared form's fields, each through its schema (`shared/api/form-fields.ts`): text a person
   * typed is there even when empty; a field left out or refused by its schema is undefined (it is
   * optional in the declaration) and named in `fieldErrors`.
   */
  fields: Fields;
  /** What the declared schema refused, field by field, for the page to show beside each field. */
  fieldErrors: readonly FormFieldError[];
  /**
   * A field the declaration requires (a hidden id, the token) is missing or malformed: not a post
   * of the page's own form. The dashboard's wrappers answer it 400 once the post's Origin, session
   * and token have been checked.
   */
  malformedForm: boolean;
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
  /** The group's own error page (the dashboard's, in its words and with its navigation). */
  errorPage?: ((page: ErrorPageRequest) => string) | undefined;
}

/** What an error page knows of the failed request. */
export interface ErrorPageRequest {
  statusCode: number;
  language: Language;
  requestId: string;
  event: PageEvent;
  context: Context;
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
 * logged with the request id and answered 500 without internals. A payer's page validates
 * nothing, so it names its endpoint instead of importing the declaration: no schema, and no zod, in
 * its bundle. A dashboard page passes its declaration: its form reaches it as typed `fields`.
 */
export function pageHandler<const E extends PageEndpointName | PageEndpoint>(
  endpoint: E,
  render: (request: PageRequest<FieldsOf<E>>) => Promise<PageResult>,
  options: PageOptions = {},
) {
  const name = endpointNameOf(endpoint);
  const handler = middy<PageEvent, APIGatewayProxyResult, Error, Context>()
    .use(metricsPublished())
    .use(errorPages(name, options))
    .use(normalizeHeaders())
    .use(pageLanguage())
    .use(formBody(options.maxFormFieldChars))
    .handler(async (event, context) => {
      const result = await render(pageRequestOf(event, context, formOf(endpoint)));
      if ('download' in result) return downloadResponse(result.download, options.headers);
      return 'redirect' in result
        ? redirectResponse(result.redirect, result.setCookie, options.headers)
        : htmlResponse(result.statusCode, result.html, options.headers);
    });
  // Kept on the handler so a test can check each entry file serves its own endpoint.
  return Object.assign(inRequestOf(handler), { endpointName: name });
}

/**
 * A page is given by its name (the payers' pages: nothing to validate, no zod in their bundle) or
 * by its declaration (the dashboard's: its form is parsed with the declared schema).
 */
export const endpointNameOf = (endpoint: PageEndpointName | PageEndpoint): PageEndpointName =>
  typeof endpoint === 'string' ? endpoint : (endpoint.name as PageEndpointName);

export const formOf = (endpoint: PageEndpointName | PageEndpoint): ZodType | undefined =>
  typeof endpoint === 'string' ? undefined : endpoint.form;

/**
 * The declared form's fields, one at a time, so one refused field leaves the others readable and
 * the page can say which one is wrong. A refused field the schema may go without (optional, or
 * with a default) is left undefined; one it requires makes the form malformed.
 */
export function parseForm(
  schema: ZodType | undefined,
  raw: Record<string, string>,
): Pick<PageRequest<Record<string, unknown>>, 'fields' | 'fieldErrors' | 'malformedForm'> {
  const shape = (schema?._zod.def as { shape?: Record<string, ZodType> } | undefined)?.shape ?? {};
  const fields: Record<string, unknown> = {};
  const fieldErrors: FormFieldError[] = [];
  let malformedForm = false;
  for (const [name, field] of Object.entries(shape)) {
    const value = Object.hasOwn(raw, name) ? raw[name] : undefined;
    const parsed = field.safeParse(value);
    if (parsed.success) {
      if (parsed.data !== undefined) fields[name] = parsed.data;
      continue;
    }
    fieldErrors.push({
      field: name,
      problem: value === undefined || value.trim() === '' ? 'missing' : 'invalid',
    });
    if (!field.safeParse(undefined).success) malformedForm = true;
  }
  return { fields, fieldErrors, malformedForm };
}

/** The page's request, once the page wrapper's middlewares have run on its event. */
export function pageRequestOf<Fields extends object = Record<string, never>>(
  event: PageEvent,
  context: Context,
  formSchema?: ZodType,
): PageRequest<Fields> {
  const query = (event.queryStringParameters ?? {}) as Record<string, string>;
  const form = event.form ?? {};
  const parsed = parseForm(formSchema, form);
  return {
    method: event.httpMethod,
    params: (event.pathParameters ?? {}) as Record<string, string>,
    query,
    form,
    fields: parsed.fields as Fields,
    fieldErrors: parsed.fieldErrors,
    // A GET has no form to be malformed: its page is a link anyone may follow.
    malformedForm: event.httpMethod === 'POST' && parsed.malformedForm,
    language: event.language ?? 'fr',
    languagePinned: query.lang?.trim().toLowerCase() === event.language,
    headers: event.normalizedHeaders ?? {},
    baseUrl: publicBaseUrl(event),
    requestId: requestIdOf(event, context),
    sourceIp: event.requestContext?.identity?.sourceIp ?? '',
    context,
  };
}

export const requestIdOf = (event: PageEvent, context: Context | undefined) =>
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
      const page = (statusCode: number) =>
        options.errorPage
          ? options.errorPage({ statusCode, language, requestId, event, context: request.context })
          : errorPage({ statusCode, language, requestId });
      if (error instanceof DomainError) {
        // A form that does not validate is the payer's doing, like any other bad request.
        const statusCode = error instanceof ValidationFailed ? 400 : statusByErrorId[error.id];
        request.response = htmlResponse(statusCode, page(statusCode), options.headers);
        return;
      }
      logger.error('unexpected error', {
        error: error as Error,
        requestId,
        endpoint,
        route: `${event.httpMethod} ${event.resource}`,
        path: event.path,
      });
      request.response = htmlResponse(500, page(500), options.headers);
    },
  };
}
