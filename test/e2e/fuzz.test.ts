import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { enum as enumOf, object, string, uuid } from 'zod';
import type { $ZodType as ZodType } from 'zod/v4/core';
import { type EndpointName, endpointEntries, endpoints } from '#shared/api/all-endpoints.ts';
import type { Endpoint } from '#shared/api/endpoint.ts';
import { paymentLinkPathParams } from '#shared/api/payment-links.ts';
import { paymentRequestPathParams } from '#shared/api/payment-requests.ts';
import { payoutCallbackParams } from '#shared/api/provider-callbacks.ts';
import { linkRequestPathParams } from '#shared/api/service-providers.ts';
import { providerCodes } from '#shared/domain/payment-methods.ts';

/** Ivorian mobile numbers, which every provider takes: the valid inputs of the payer phone fields. */
const payerPhonePattern = /^\+22507\d{8}$/;

import { verifiedCallbackBody } from '#shared/providers/callback-body.ts';
import { anyInput } from '#test/support/schema-arbitraries.ts';
import { buildWorld, type Headers, idsOfBusiness, type World } from '#test/support/world.ts';

/**
 * Every endpoint, called with inputs made from the request schemas it declares: valid ones,
 * mutated ones (a field dropped, mistyped, far too long, not well-formed Unicode), arbitrary JSON,
 * and path ids that are real objects, random UUIDs or junk. No answer may be a 5xx; every error
 * has the interface's body; and nothing is half written. FUZZ_RUNS sets the runs per route,
 * FUZZ_SEED replays the seed a failure printed.
 */
interface FuzzInputs {
  params?: ZodType;
  query?: ZodType;
  /** A JSON body. */
  body?: ZodType;
  /** An HTML form's body (the hosted pages). */
  form?: ZodType;
  /** Signed as the sandbox provider signs, so the body is judged past the signature. */
  signed?: true;
}

const pageQuery = object({
  lang: enumOf(['fr', 'en']).optional(),
  attempt: string()
    .regex(/^\d{1,3}$/)
    .optional(),
  payment: uuid().optional(),
});
const payerForm = object({
  paymentMethod: enumOf(providerCodes),
  payerPhone: string().regex(payerPhonePattern),
});
/** A payout callback as the sandbox provider sends it (shared/providers/sandbox.ts). */
const payoutCallbackBody = object({
  callbackId: string(),
  method: enumOf([...providerCodes, 'bank']),
  providerReference: string(),
  transferId: uuid(),
  outcome: enumOf(['success', 'declined', 'limit_exceeded']),
});
/** The owner's answer on the consent page. */
const consentForm = object({ code: string().regex(/^\d{6}$/), decision: enumOf(['approve', 'decline']) });
/** The sandbox identity form: a number ending in 0000 is rejected. */
const identityForm = object({
  firstName: string(),
  lastName: string(),
  idNumber: string().regex(/^[A-Z0-9]{4,12}$/),
  'dateOfBirth-day': string().regex(/^\d{1,2}$/),
  'dateOfBirth-month': string().regex(/^\d{1,2}$/),
  'dateOfBirth-year': string().regex(/^(19|20)\d{2}$/),
});
const checkoutParams = object({ providerReference: string().regex(/^sbx_[0-9a-f-]{36}$/) });

/**
 * Each endpoint is fuzzed with the schemas it declares. These say more than a declaration can: a
 * provider's callback body as it is signed (the declaration has none, the body being checked past
 * the signature), a page's form and query as the page reads them (pages declare their fields
 * loosely, for the reference), a sandbox payer's number as the sandbox reads it.
 */
const sharperInputs: Partial<Record<EndpointName, FuzzInputs>> = {
  linkPage: { params: paymentLinkPathParams, query: pageQuery, body: undefined, form: undefined },
  submitLinkPage: { params: paymentLinkPathParams, form: payerForm, query: undefined, body: undefined },
  receiveProviderCallback: {
    params: object({ provider: enumOf(providerCodes) }),
    body: verifiedCallbackBody,
    signed: true,
    query: undefined,
    form: undefined,
  },
  receiveProviderCallbackPut: {
    params: object({ provider: enumOf(providerCodes) }),
    body: verifiedCallbackBody,
    signed: true,
    query: undefined,
    form: undefined,
  },
  approveSandboxPaymentRequest: {
    params: paymentRequestPathParams,
    body: object({ payerPhone: string().regex(payerPhonePattern).optional() }),
    query: undefined,
    form: undefined,
  },
  paymentPage: { params: paymentRequestPathParams, query: pageQuery, body: undefined, form: undefined },
  submitPaymentPage: { params: paymentRequestPathParams, form: payerForm, query: undefined, body: undefined },
  paymentReturnPage: { params: paymentRequestPathParams, query: pageQuery, body: undefined, form: undefined },
  sandboxCheckoutPage: { params: checkoutParams, query: undefined, body: undefined, form: undefined },
  sandboxCheckoutAction: {
    params: checkoutParams,
    form: object({ action: enumOf(['approve', 'decline']), payerPhone: string().optional() }),
    query: undefined,
    body: undefined,
  },
  receivePayoutCallback: {
    params: payoutCallbackParams,
    body: payoutCallbackBody,
    signed: true,
    query: undefined,
    form: undefined,
  },
  receivePayoutCallbackPut: {
    params: payoutCallbackParams,
    body: payoutCallbackBody,
    signed: true,
    query: undefined,
    form: undefined,
  },
  linkRequestPage: { params: linkRequestPathParams, query: pageQuery, body: undefined, form: undefined },
  submitLinkRequestPage: {
    params: linkRequestPathParams,
    form: consentForm,
    query: undefined,
    body: undefined,
  },
  sandboxVerificationPage: {
    params: linkRequestPathParams,
    query: pageQuery,
    body: undefined,
    form: undefined,
  },
  submitSandboxVerificationPage: {
    params: linkRequestPathParams,
    form: identityForm,
    query: undefined,
    body: undefined,
  },
};

/** The inputs an endpoint is fuzzed with: what it declares, sharpened where said above. */
function fuzzInputsOf(name: EndpointName, endpoint: Endpoint): FuzzInputs {
  const declared: FuzzInputs = {
    params: endpoint.params,
    query: endpoint.query,
    body: 'body' in endpoint ? endpoint.body : undefined,
    form: 'form' in endpoint ? endpoint.form : undefined,
  };
  return { ...declared, ...sharperInputs[name] };
}

const runs = Number(process.env.FUZZ_RUNS ?? 8);
const { config } = inject('localHost');
let world: World;
let entitiesBefore: Record<string, number>;
/** Successful creates, by route: each must account for exactly one object in the table. */
const created: Partial<Record<EndpointName, number>> = {};

beforeAll(async () => {
  world = await buildWorld(config);
  entitiesBefore = await entitiesOf(world.a.businessId);
}, 120_000);
afterAll(async () => {
  await world?.receiver.close();
});

interface Call {
  path: string;
  query: string;
  body?: string;
  headers: Headers;
}

function toText(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
}

/**
 * A path segment as a client may send it: a lone surrogate (which encodeURIComponent refuses)
 * goes out as the three bytes a lax encoder writes for it, which are not UTF-8.
 */
function encodePathSegment(text: string): string {
  return text
    .split(/(\p{Surrogate})/u)
    .map((part) => {
      if (!/^\p{Surrogate}$/u.test(part)) return encodeURIComponent(part);
      const unit = part.charCodeAt(0);
      return [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)]
        .map((byte) => `%${byte.toString(16).toUpperCase()}`)
        .join('');
    })
    .join('');
}

/** Object fields as query or form pairs: arrays repeat the name, other values are written out. */
function pairs(value: unknown): [string, string][] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [['value', toText(value)]];
  return Object.entries(value).flatMap(([name, field]) =>
    Array.isArray(field)
      ? field.map((item): [string, string] => [name, toText(item)])
      : [[name, toText(field)]],
  );
}

function callArbitrary(inputs: FuzzInputs, route: (typeof endpointEntries)[number][1]) {
  const realIds = fc.constantFrom(
    ...idsOfBusiness(world),
    world.a.deviceId,
    world.provider.onboardedBusinessId,
    world.provider.linkRequestId,
  );
  const paramNames = [...route.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1] as string);
  const params = inputs.params
    ? fc.oneof(
        anyInput(inputs.params),
        fc
          .tuple(...paramNames.map(() => realIds))
          .map((ids) => Object.fromEntries(paramNames.map((p, i) => [p, ids[i]]))),
      )
    : fc.constant({});
  const query = inputs.query ? anyInput(inputs.query) : fc.constant(undefined);
  const body = inputs.body ?? inputs.form;
  const payload = body ? fc.option(anyInput(body), { freq: 8 }) : fc.constant(undefined);
  const owner =
    route.caller === 'service_provider'
      ? world.provider.key
      : route.caller === 'public'
        ? {}
        : route.caller === 'platform_key'
          ? world.a.platform
          : world.a.merchant;
  return fc.tuple(params, query, payload).map(([paramValues, queryValue, payloadValue]): Call => {
    const values = (paramValues ?? {}) as Record<string, unknown>;
    const path = route.path.replace(/\{(\w+)\}/g, (_, param: string) =>
      encodePathSegment(toText(values[param] ?? '')),
    );
    const headers: Headers = { ...owner };
    let text: string | undefined;
    if (payloadValue !== null && payloadValue !== undefined) {
      if (inputs.form) {
        text = new URLSearchParams(pairs(payloadValue)).toString();
        headers['content-type'] = 'application/x-www-form-urlencoded';
      } else {
        text = JSON.stringify(payloadValue);
        headers['content-type'] = 'application/json';
      }
    }
    if (inputs.signed && text !== undefined)
      headers['x-sandbox-signature'] = createHmac('sha256', config.sandbox.providerSecret)
        .update(text)
        .digest('hex');
    const search = queryValue === undefined ? '' : new URLSearchParams(pairs(queryValue)).toString();
    return {
      path,
      query: search ? `?${search}` : '',
      headers,
      ...(text === undefined ? {} : { body: text }),
    };
  });
}

async function send(method: string, call: Call) {
  const response = await fetch(`${config.baseUrl}${call.path}${call.query}`, {
    method,
    headers: call.headers,
    body: call.body,
    redirect: 'manual',
  });
  return {
    status: response.status,
    type: response.headers.get('content-type') ?? '',
    text: await response.text(),
  };
}

/** The interface's error body: `{id, message, extras}`, with `[{field, rule, message}]` for a 422. */
function expectErrorBody(text: string) {
  const body = JSON.parse(text);
  expect(typeof body.message).toBe('string');
  if (Object.keys(body).length === 1) return; // `{message}` alone, where the interface answers so.
  expect(Object.keys(body).sort()).toEqual(['extras', 'id', 'message']);
  expect(body.id).toMatch(/^[\w]+$/);
  if (body.id === 'validation_error') {
    expect(body.extras.errors.length).toBeGreaterThan(0);
    for (const error of body.extras.errors)
      expect(error).toEqual({
        field: expect.any(String),
        rule: expect.any(String),
        message: expect.any(String),
      });
  } else {
    expect(body.extras === null || typeof body.extras === 'object').toBe(true);
  }
}

async function entitiesOf(businessId: string): Promise<Record<string, number>> {
  const { ScanCommand } = await import('@aws-sdk/lib-dynamodb');
  const { documentClient, tableName } = await import('#shared/aws/dynamodb.ts');
  const counts: Record<string, number> = {};
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await documentClient.send(
      new ScanCommand({
        TableName: tableName(),
        FilterExpression: 'businessId = :business',
        ExpressionAttributeValues: { ':business': businessId },
        ProjectionExpression: 'entity, paymentLinkId',
        ExclusiveStartKey,
      }),
    );
    for (const item of page.Items ?? []) {
      const entity =
        item.entity === 'payment_request' && item.paymentLinkId ? 'link_payment_request' : item.entity;
      counts[entity] = (counts[entity] ?? 0) + 1;
    }
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return counts;
}

/** What a route answers on success: 200, or the status its declaration says. */
const successStatus = (route: (typeof endpointEntries)[number][1]) =>
  'response' in route ? (route.status ?? 200) : 200;

describe('fuzzing every endpoint from its schemas', () => {
  it.each(endpointEntries)(
    '%s never answers 5xx, and answers errors in the interface format',
    async (name, route) => {
      const inputs = fuzzInputsOf(name, route);
      await fc.assert(
        fc.asyncProperty(callArbitrary(inputs, route), async (call) => {
          const answer = await send(route.method, call);
          expect(answer.status, `${route.method} ${call.path}${call.query} ${call.body ?? ''}`).toBeLessThan(
            500,
          );
          if (answer.type.startsWith('application/json') && answer.status >= 400)
            expectErrorBody(answer.text);
          // A page answers in HTML, unless the gateway refused the request before any handler ran
          // (an unknown route, a malformed escape, too large), in the interface's JSON as a stage does.
          const contract = endpoints[name];
          if ('document' in contract && answer.status === 200) {
            // A document of the reference answers its own type (each file of the page its own).
            if (contract.contentType !== 'application/octet-stream')
              expect(answer.type.startsWith(contract.contentType), answer.type).toBe(true);
          } else if (route.caller === 'public' && route.method === 'GET' && answer.status !== 303) {
            if (answer.type.startsWith('application/json'))
              expect(['bad_request', 'not_found', 'request_too_large']).toContain(JSON.parse(answer.text).id);
            else expect(answer.type).toMatch(/^text\/html/);
          }
          if (answer.status === successStatus(route) && route.method === 'POST')
            created[name] = (created[name] ?? 0) + 1;
        }),
        // A failure prints its seed; FUZZ_SEED=<seed> replays it.
        { numRuns: runs, ...(process.env.FUZZ_SEED ? { seed: Number(process.env.FUZZ_SEED) } : {}) },
      );
    },
  );

  it('leaves nothing half written: every object made is whole, and accounted for by a success', async () => {
    const after = await entitiesOf(world.a.businessId);
    const grown = (entity: string) => (after[entity] ?? 0) - (entitiesBefore[entity] ?? 0);
    expect(grown('payment_request')).toBe(created.createPaymentRequest ?? 0);
    expect(grown('payment_link')).toBe(created.createPaymentLink ?? 0);
    // Creations go through the merchant key, which may not hold in escrow: no escrow is made.
    expect(grown('escrow')).toBe(0);
    // Where an object is written with a pointer to it, both are written in one transaction or
    // neither (a layout that keeps one item per object has no pointers to count).
    if (after.payment_request_pointer !== undefined)
      expect(after.payment_request_pointer).toBe(
        (after.payment_request ?? 0) + (after.link_payment_request ?? 0),
      );
    if (after.payment_link_pointer !== undefined)
      expect(after.payment_link_pointer).toBe(after.payment_link ?? 0);
  });
});
