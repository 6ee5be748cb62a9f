import { array, enum as enumOf, literal, nullable, object, record, string, union, unknown } from 'zod';
import type { $ZodType as ZodType } from 'zod/v4/core';
import {
  createDocument,
  type ZodOpenApiComponentsObject,
  type ZodOpenApiOperationObject,
  type ZodOpenApiPathsObject,
  type ZodOpenApiResponseObject,
} from 'zod-openapi';

type Responses = Record<string, ZodOpenApiResponseObject>;

import { endpointEntries } from '#shared/api/all-endpoints.ts';
import type { Endpoint, HttpMethod, JsonEndpoint } from '#shared/api/endpoint.ts';
import { webhookEvents } from '#shared/api/webhook-events.ts';
import type { ErrorId } from '#shared/errors/domain-error.ts';
import { statusByErrorId } from '#shared/http/error-status.ts';
import { endpointDescriptions } from '#shared/openapi/descriptions.ts';
import { webhookVersion } from '#shared/operations/webhook-send.ts';

/**
 * Who a document is for. The integrators' (`/openapi.json`, `/docs`, the typed client) describes the
 * API a business's code calls with a key, the payers' hosted pages and the sandbox. The dashboard's
 * pages are not part of that interface: a member's browser reaches them with a session, they change
 * with the dashboard, and an integrator can do nothing with them; they are described in an internal
 * document of their own, served by no host, which the tests check the dashboard's answers against.
 */
export type OpenApiAudience = 'integrators' | 'dashboard';

/** Where each committed document lives; `npm run openapi` rewrites both. */
export const openApiDocumentPaths: Readonly<Record<OpenApiAudience, string>> = {
  integrators: 'shared/openapi/openapi.json',
  dashboard: 'shared/openapi/dashboard-openapi.json',
};

/** The integrators' document, the one every host serves at `/openapi.json`. */
export const openApiDocumentPath = openApiDocumentPaths.integrators;

/** A path of the dashboard's (`/dashboard` and below): in the dashboard's document only. */
export const isDashboardPath = (path: string) => path === '/dashboard' || path.startsWith('/dashboard/');

/** The endpoints a document describes, in the order they are declared. */
export const endpointEntriesFor = (audience: OpenApiAudience) =>
  endpointEntries.filter(([, endpoint]) => isDashboardPath(endpoint.path) === (audience === 'dashboard'));

/** The interface's version (spec §9); paths carry none. */
const apiVersion = '1.0.0';

/** The interface answers these with `{"message"}` alone (see `DomainError.messageOnly`). */
const messageOnlyErrorIds: ReadonlySet<ErrorId> = new Set(['webhook_subscription_not_found']);

/**
 * A rate limit's answer, before any handler runs: the stage's throttle (infra/constructs/api.ts,
 * gateway responses), its WAF's per-key rule, the local host's per-key limit.
 */
const throttledErrorId = 'too_many_requests';
/** The per-key limit's answer says when to come back; the stage's throttle's may not. */
const rateLimitedHeaders = object({
  'Retry-After': string()
    .regex(/^[1-9][0-9]*$/)
    .optional()
    .meta({ description: 'Seconds to wait before the key’s next request is served.' }),
});

/** An operator down for now (`provider_unavailable`) says when to try again. */
const operatorDownHeaders = object({
  'Retry-After': string()
    .regex(/^[1-9][0-9]*$/)
    .meta({ description: 'Seconds to wait before trying this payment method again; another works now.' }),
});

/** The gateway's answer to a body over its limit, before any handler runs. */
const tooLargeErrorId = 'request_too_large';

/** The gateway refuses a path or query over the service's limit on every route, before any handler. */
const targetTooLong = () => ({
  '414': {
    description: "`bad_request`: the path or query is over the service's limit; no handler was reached.",
    content: { 'application/json': { schema: errorWithIds(['bad_request']) } },
  },
});

const fieldError = object({
  field: string().meta({ description: 'The input field, dotted: `paymentDetails.data.deviceId`.' }),
  rule: string().meta({
    description: 'A short stable word: `required`, `in`, `uuid`, `type`, `min`, `max`, `format`, ...',
  }),
  message: string(),
}).meta({ id: 'FieldError' });

const validationError = object({
  id: literal('validation_error'),
  message: string(),
  extras: object({ errors: array(fieldError) }),
}).meta({
  id: 'ValidationError',
  examples: [
    {
      id: 'validation_error',
      message: 'The given data was invalid',
      extras: {
        errors: [
          { field: 'amountCents', rule: 'min', message: 'The amountCents field must be at least 100.' },
        ],
      },
    },
  ],
});

const errorWithIds = (ids: readonly string[]) =>
  object({
    id: enumOf(ids as [string, ...string[]]),
    message: string(),
    extras: nullable(union([string(), record(string(), unknown())])).meta({
      description: 'Null unless there is something to add.',
    }),
  });

const messageOnlyError = object({ message: string() }).meta({
  id: 'MessageOnlyError',
  examples: [{ message: 'Webhook subscription not found' }],
});

/** The error ids an endpoint may answer: its caller kind's, its input's, its own. */
function errorIdsOf(endpoint: JsonEndpoint): ErrorId[] {
  const ids: ErrorId[] = [];
  // A body that is not JSON, or a path whose escapes do not decode (refused before the handler).
  if (endpoint.body || endpoint.params) ids.push('bad_request');
  if (endpoint.caller !== 'public') ids.push('unauthorized', 'business_not_enabled_for_api_access');
  if (endpoint.caller === 'platform_key' || endpoint.caller === 'service_provider')
    ids.push('forbidden_action');
  if (endpoint.params || endpoint.query || endpoint.body) ids.push('validation_error');
  if (endpoint.idempotent) ids.push('idempotency_key_reused', 'idempotency_key_in_progress');
  ids.push(...(endpoint.errors ?? []), 'internal_error');
  return [...new Set(ids)];
}

function errorResponses(ids: readonly ErrorId[]): Responses {
  const byStatus = new Map<number, ErrorId[]>();
  for (const id of ids) byStatus.set(statusByErrorId[id], [...(byStatus.get(statusByErrorId[id]) ?? []), id]);
  const responses: Responses = {};
  for (const [status, statusIds] of [...byStatus].sort(([a], [b]) => a - b)) {
    const bodies: ZodType[] = [];
    const plain = statusIds.filter((id) => id !== 'validation_error' && !messageOnlyErrorIds.has(id));
    if (statusIds.includes('validation_error')) bodies.push(validationError);
    if (plain.length > 0) bodies.push(errorWithIds(plain));
    if (statusIds.some((id) => messageOnlyErrorIds.has(id))) bodies.push(messageOnlyError);
    const [only] = bodies;
    responses[String(status)] = {
      description: `\`${statusIds.join('`, `')}\``,
      ...(status === 503 ? { headers: operatorDownHeaders } : {}),
      content: {
        'application/json': {
          schema: bodies.length === 1 && only ? only : union(bodies),
        },
      },
    };
  }
  return responses;
}

/** A pipe (a schema with a transform) is described by what it takes. */
function inputSide(schema: ZodType): ZodType {
  const def = schema._zod.def as { type: string; in?: ZodType; innerType?: ZodType };
  if (def.type === 'pipe' && def.in) return inputSide(def.in);
  return schema;
}

function optionalInner(schema: ZodType): { schema: ZodType; required: boolean } {
  const def = schema._zod.def as { type: string; innerType?: ZodType };
  if (def.type === 'optional' && def.innerType) return { schema: def.innerType, required: false };
  return { schema, required: true };
}

const keyed = [{ ApiKeyId: [], ApiKey: [] }];

function operationOf(endpoint: Endpoint): ZodOpenApiOperationObject {
  const description = endpointDescriptions[endpoint.name as keyof typeof endpointDescriptions];
  const params = endpoint.params ? inputSide(endpoint.params) : undefined;
  const query = endpoint.query ? inputSide(endpoint.query) : undefined;
  const common = {
    operationId: endpoint.name,
    tags: [endpoint.tag],
    summary: endpoint.summary,
    ...(description ? { description } : {}),
    ...(endpoint.sandboxOnly ? { 'x-sandbox-only': true } : {}),
    ...('page' in endpoint && endpoint.streams ? { 'x-response-streaming': true } : {}),
    requestParams: {
      ...(params ? { path: params as never } : {}),
      ...(query ? { query: query as never } : {}),
    },
    security: endpoint.caller === 'public' ? [] : keyed,
  };
  if ('page' in endpoint || 'document' in endpoint) {
    const contentType = 'page' in endpoint ? 'text/html' : endpoint.contentType;
    const form = 'page' in endpoint ? endpoint.form : undefined;
    const responses: Responses = {};
    const streamed = 'page' in endpoint ? endpoint.streams : undefined;
    for (const [status, description] of Object.entries(endpoint.answers)) {
      responses[status] =
        status === '303'
          ? { description, headers: { location: { schema: { type: 'string' } } } }
          : {
              description,
              content: {
                [contentType]: { schema: { type: contentType === 'application/json' ? 'object' : 'string' } },
                // A streamed page's 200 is also its streamed file (the export's CSV), sent as it is made.
                ...(streamed && status === '200'
                  ? { [streamed.contentType]: { schema: { type: 'string', format: 'binary' } } }
                  : {}),
              },
            };
    }
    // A path whose escapes do not decode never reaches the page: the gateway refuses it in JSON.
    if (params && !responses['400']) {
      responses['400'] = {
        description: '`bad_request`: the path has a malformed percent-escape; no page was reached.',
        content: { 'application/json': { schema: errorWithIds(['bad_request']) } },
      };
    }
    Object.assign(responses, targetTooLong());
    return {
      ...common,
      ...(form
        ? {
            requestBody: {
              required: true,
              content: { 'application/x-www-form-urlencoded': { schema: form } },
            },
          }
        : {}),
      responses,
    };
  }
  const body = endpoint.body ? optionalInner(endpoint.body) : undefined;
  return {
    ...common,
    ...(endpoint.idempotent ? { parameters: [{ $ref: '#/components/parameters/IdempotencyKey' }] } : {}),
    ...(body
      ? { requestBody: { required: body.required, content: { 'application/json': { schema: body.schema } } } }
      : {}),
    responses: {
      [String(endpoint.status ?? 200)]: {
        description: endpoint.responseDescription,
        content: { 'application/json': { schema: endpoint.response } },
      },
      ...errorResponses(errorIdsOf(endpoint)),
      ...targetTooLong(),
      ...(body
        ? {
            '413': {
              description: `\`${tooLargeErrorId}\`: the body is over the gateway's limit; nothing was read.`,
              content: { 'application/json': { schema: errorWithIds([tooLargeErrorId]) } },
            },
          }
        : {}),
      ...(endpoint.caller === 'public'
        ? {}
        : {
            '429': {
              description: `\`${throttledErrorId}\`: the key's requests per minute, or the stage's request rate, were exceeded; nothing was done. Retry after \`Retry-After\` seconds when given, and back off.`,
              headers: rateLimitedHeaders,
              content: { 'application/json': { schema: errorWithIds([throttledErrorId]) } },
            },
          }),
    },
  };
}

const webhookHeaders = (eventName: string) =>
  object({
    'Svc-Signature': string()
      .regex(/^[0-9a-f]{64}$/)
      .meta({
        description:
          'Lowercase hex HMAC-SHA256 of the exact body bytes, keyed with the subscription’s secret. Check it before parsing.',
      }),
    'Svc-Event': literal(eventName).meta({ description: 'The event’s name.' }),
    'Svc-Webhook-Version': literal(webhookVersion),
  });

const description = `The Partner Payments API: collect payments in XOF through five mobile-money providers
(Orange Money, Wave, MTN MoMo, Moov Money, Djamo), by redirect, soundbox QR code or payment link, and
reconcile with the transaction list and signed webhooks.

**Keys.** Every \`/partner_api\` call carries \`X-API-KEY-ID\` and \`X-API-KEY\`, both: a key acts for
its business (a platform key may be scoped to one store). Another business's objects are not found (404).

**Errors** are \`{"id", "message", "extras"}\`: the \`id\` is stable, switch on it. Invalid input is
422 \`validation_error\` with \`extras.errors\` = \`[{field, rule, message}]\`. A few answers of the
interface are \`{"message"}\` alone.

**Idempotency.** Creates that take \`Idempotency-Key\` answer the first answer again for the same key
and body within 24 hours.

**Amounts** are integers in cents: \`150000\` is 1 500 XOF.

**Sandbox.** Every stage but production has a sandbox provider behind the five codes; the payer's
phone chooses the outcome (\`+2250700000001\` success, \`+2250700000002\` declined, ..., the same
endings in every UEMOA country: \`+221770000002\` is declined too). Operations
marked \`x-sandbox-only\` exist there only.`;

/** A line per section of the reference; a new section without one gets its name. */
const tagDescriptions: Record<string, string> = {
  Stores: 'The business’s stores and what they hold.',
  Devices: 'Soundbox terminals that show a payment’s QR code.',
  'Payment requests': 'Collect an amount: redirect the payer, or show a QR code on a soundbox.',
  'Payment links': 'A page where customers pay a set amount, once or many times.',
  Transactions: 'The list to reconcile with.',
  Transfers: 'Pay out from a store: to a mobile-money number, a bank account, or another store.',
  Contacts: 'The beneficiaries transfers are paid to.',
  Escrows: 'Payments held for a platform until it releases them, or refunds the payer.',
  Messages: 'SMS sent in the business’s name, and the balance that pays for them.',
  Webhooks: 'Signed events sent to the business’s subscription, and their delivery log.',
  'Service providers': 'What a service provider does for the merchants linked to it.',
  Providers: 'Callbacks of the mobile-money providers.',
  'Hosted pages': 'HTML pages for payers, in French and English.',
  Sandbox: 'Helpers of the sandbox stages: play the payer. Not on production.',
  Reference: 'This document and its page.',
  Dashboard: 'The merchants’ dashboard: pages and form posts of a signed-in member’s browser.',
};

/** Sections in the order of `tagDescriptions`, a new one last. */
const tagOrder = Object.keys(tagDescriptions);
const byTagOrder = (a: string, b: string) =>
  (tagOrder.indexOf(a) + 1 || tagOrder.length + 1) - (tagOrder.indexOf(b) + 1 || tagOrder.length + 1);

/** The integrators' key headers and `Idempotency-Key`, which their operations refer to. */
const integratorComponents: ZodOpenApiComponentsObject = {
  securitySchemes: {
    ApiKeyId: {
      type: 'apiKey',
      in: 'header',
      name: 'X-API-KEY-ID',
      description: 'The key’s id, a UUID.',
    },
    ApiKey: {
      type: 'apiKey',
      in: 'header',
      name: 'X-API-KEY',
      description: 'The secret: `ppsk_` and 43 characters, shown once when the key is made.',
    },
  },
  parameters: {
    IdempotencyKey: {
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description:
        'Any string up to 255 characters. The same key with the same body within 24 hours answers the ' +
        'first answer again, creating nothing; with another body, 422 `idempotency_key_reused`; while ' +
        'the first is still running, 409 `idempotency_key_in_progress`.',
      schema: { type: 'string', maxLength: 255 },
      example: 'commande-2042-essai-1',
    },
  },
};

const dashboardDescription = `The merchants' dashboard, for the service's own developers and tests: not served by any
host, not in the integrators' reference (\`/openapi.json\`, \`/docs\`) nor in the typed client.

Its pages answer HTML in French and English and its form posts redirect (303). A member's session
(a cookie, with a CSRF field in every form) is the capability, not an API key; the declarations in
\`shared/api/\` are the same ones the stack and the local host serve.`;

/**
 * The OpenAPI 3.1 document of the declared endpoints an audience uses: the integrators' has every
 * endpoint but the dashboard's, and every webhook event; the dashboard's has its pages alone.
 */
export function buildOpenApiDocument(audience: OpenApiAudience = 'integrators') {
  const entries = endpointEntriesFor(audience);
  const forIntegrators = audience === 'integrators';
  const paths: ZodOpenApiPathsObject = {};
  for (const [, endpoint] of entries) {
    const method = endpoint.method.toLowerCase() as Lowercase<HttpMethod>;
    paths[endpoint.path] = { ...paths[endpoint.path], [method]: operationOf(endpoint) };
  }
  const webhooks: ZodOpenApiPathsObject = {};
  for (const [eventName, event] of forIntegrators ? Object.entries(webhookEvents) : []) {
    webhooks[eventName] = {
      post: {
        operationId: `webhook${eventName
          .toLowerCase()
          .replace(/(^|_)([a-z])/g, (_match, _sep, letter: string) => letter.toUpperCase())}`,
        tags: ['Webhooks'],
        summary: eventName,
        description: event.summary,
        requestParams: { header: webhookHeaders(eventName) },
        requestBody: { required: true, content: { 'application/json': { schema: event.body } } },
        responses: {
          '2XX': { description: 'Received. Answer within 30 seconds, then do the work; dedupe on `id`.' },
          default: { description: 'Not received: the delivery is retried, up to 4 attempts in all.' },
        },
        security: [],
      },
    };
  }
  return createDocument(
    {
      openapi: '3.1.0',
      info: {
        title: forIntegrators ? 'Partner Payments API' : 'Partner Payments dashboard (internal)',
        version: apiVersion,
        description: forIntegrators ? description : dashboardDescription,
        license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
      },
      // Each host serves the document with its own address here (shared/reference/served-document.ts).
      servers: [{ url: '/' }],
      security: forIntegrators ? keyed : [],
      tags: [
        ...new Set([...entries.map(([, endpoint]) => endpoint.tag), ...(forIntegrators ? ['Webhooks'] : [])]),
      ]
        .sort(byTagOrder)
        .map((tag) => ({ name: tag, description: tagDescriptions[tag] ?? tag })),
      paths,
      ...(forIntegrators ? { webhooks } : {}),
      // The dashboard's pages take no key and no Idempotency-Key: its document has neither.
      components: forIntegrators ? integratorComponents : {},
    },
    { outputIdSuffix: 'Output' },
  );
}

/** The document as committed: stable key order, two-space indent, a final newline. */
export const serializeOpenApiDocument = (document: unknown) => `${JSON.stringify(document, null, 2)}\n`;
