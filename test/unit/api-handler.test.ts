import { DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { object, unknown, uuid, type ZodMiniType } from 'zod/mini';
import type { CallerKind } from '#shared/api/endpoint.ts';
import { hashApiKeySecret } from '#shared/domain/api-key-secret.ts';
import { StoreNotFound } from '#shared/errors/businesses.ts';
import { apiHandler } from '#shared/http/api-handler.ts';
import { clearAuthenticationCache } from '#shared/http/authenticate.ts';
import { logger } from '#shared/logger.ts';
import { proxyEvent, testLambdaContext } from '#test/support/proxy-event.ts';

process.env.TABLE_NAME = 'unit';
const documentClient = mockClient(DynamoDBDocumentClient);

const keyId = '6f1c2a4e-1f7b-4a55-9d43-0c1f3c1d2e11';
const secret = 'ppsk_unit-secret';
const businessId = 'b0b0b0b0-0000-4000-8000-000000000001';

function givenKey(
  key: { kind?: string; storeId?: string; lastUsedAt?: string } = {},
  business: { apiAccessEnabled?: boolean; isServiceProvider?: boolean } = {},
) {
  documentClient.on(GetCommand).resolves({});
  documentClient.on(GetCommand, { Key: { pk: `APIKEY#${keyId}`, sk: 'APIKEY' } }).resolves({
    Item: {
      id: keyId,
      businessId,
      kind: key.kind ?? 'merchant',
      storeId: key.storeId,
      memberId: 'm1',
      name: 'k',
      secretHash: hashApiKeySecret(secret),
      lastUsedAt: key.lastUsedAt,
    },
  });
  documentClient.on(GetCommand, { Key: { pk: `BIZ#${businessId}`, sk: 'PROFILE' } }).resolves({
    Item: {
      id: businessId,
      name: 'Biz',
      apiAccessEnabled: business.apiAccessEnabled ?? true,
      isServiceProvider: business.isServiceProvider ?? false,
      verificationLevel: 1,
    },
  });
}

/** An endpoint of no capability, for the wrapper alone. */
const endpoint = <const C extends CallerKind, const S extends { params?: ZodMiniType; status?: 200 | 201 }>(
  caller: C,
  schemas: S,
) => ({
  name: 'testEndpoint',
  entry: 'functions/test/test-endpoint.ts',
  method: 'POST' as const,
  path: '/t/{storeId}',
  caller,
  access: [],
  tag: 'Test',
  summary: 'A test endpoint',
  response: unknown(),
  responseDescription: 'Anything.',
  ...schemas,
});

function event(overrides: Partial<APIGatewayProxyEvent> = {}): APIGatewayProxyEvent {
  return proxyEvent({
    httpMethod: 'POST',
    path: '/t/x',
    resource: '/t/{storeId}',
    headers: { 'X-Api-Key-Id': keyId, 'X-API-KEY': secret },
    pathParameters: { storeId: '0b0d6c1e-6a2f-4c43-9a7e-3f0a3b6f1f11' },
    ...overrides,
  });
}

const context = testLambdaContext;
const params = object({ storeId: uuid() });

async function call(handler: ReturnType<typeof apiHandler>, e = event()) {
  const response = await handler(e, context);
  return { status: response.statusCode, body: JSON.parse(response.body) };
}

beforeEach(() => {
  documentClient.reset();
  clearAuthenticationCache();
});

describe('the handler wrapper', () => {
  const echo = apiHandler(endpoint('api_key', { params }), async ({ params, caller }) => ({
    storeId: params.storeId,
    businessId: caller.businessId,
  }));

  it('answers 200 with the operation result for a valid key and input', async () => {
    givenKey();
    expect(await call(echo)).toEqual({
      status: 200,
      body: { storeId: '0b0d6c1e-6a2f-4c43-9a7e-3f0a3b6f1f11', businessId },
    });
  });

  it('answers the success status its endpoint declares (201 for a creation that says so)', async () => {
    givenKey();
    const creating = apiHandler(endpoint('api_key', { params, status: 201 }), async () => ({ made: true }));
    expect(await call(creating)).toEqual({ status: 201, body: { made: true } });
  });

  it('answers 401 unauthorized without reading anything when a header is missing or the key id is not a UUID', async () => {
    for (const headers of [
      {},
      { 'x-api-key': secret },
      { 'x-api-key-id': keyId },
      { 'x-api-key-id': 'abc', 'x-api-key': secret },
    ]) {
      expect(await call(echo, event({ headers }))).toEqual({
        status: 401,
        body: { id: 'unauthorized', message: 'Invalid or missing API key', extras: null },
      });
    }
    expect(documentClient.calls()).toHaveLength(0);
  });

  it('answers 401 for a wrong secret and for an unknown key id', async () => {
    givenKey();
    expect(
      (await call(echo, event({ headers: { 'x-api-key-id': keyId, 'x-api-key': 'ppsk_wrong' } }))).status,
    ).toBe(401);
    const unknown = event({
      headers: { 'x-api-key-id': '11111111-1111-4111-8111-111111111111', 'x-api-key': secret },
    });
    expect((await call(echo, unknown)).status).toBe(401);
  });

  it('answers 403 business_not_enabled_for_api_access when the business has no API access', async () => {
    givenKey({}, { apiAccessEnabled: false });
    expect(await call(echo)).toEqual({
      status: 403,
      body: {
        id: 'business_not_enabled_for_api_access',
        message: 'The business account is not enabled for API access',
        extras: null,
      },
    });
  });

  it('answers 403 forbidden_action when the key lacks the right for the route', async () => {
    const platformOnly = apiHandler(endpoint('platform_key', {}), async () => ({}));
    const providersOnly = apiHandler(endpoint('service_provider', {}), async () => ({}));
    givenKey({ kind: 'merchant' });
    expect((await call(platformOnly)).body.id).toBe('forbidden_action');
    expect((await call(providersOnly)).body.id).toBe('forbidden_action');
    documentClient.reset();
    clearAuthenticationCache();
    givenKey({ kind: 'platform' }, { isServiceProvider: true });
    expect((await call(platformOnly)).status).toBe(200);
    expect((await call(providersOnly)).status).toBe(200);
  });

  it('checks the key before validating input, so a stranger learns nothing about the fields', async () => {
    const result = await call(echo, event({ headers: {}, pathParameters: { storeId: 'nope' } }));
    expect(result.status).toBe(401);
  });

  it('answers 422 validation_error naming the field', async () => {
    givenKey();
    expect(await call(echo, event({ pathParameters: { storeId: 'nope' } }))).toEqual({
      status: 422,
      body: {
        id: 'validation_error',
        message: 'The given data was invalid',
        extras: {
          errors: [{ field: 'storeId', rule: 'uuid', message: 'The storeId field must be a valid UUID.' }],
        },
      },
    });
  });

  it('answers 400 for a body that is not JSON, before anything else', async () => {
    expect(await call(echo, event({ headers: {}, body: '{"amountCents": 1' }))).toEqual({
      status: 400,
      body: { id: 'bad_request', message: 'The request body is not valid JSON', extras: null },
    });
  });

  it('answers 413 for a body over 16 KiB, unread, and takes one at the limit', async () => {
    const over = `{"pad":"${'x'.repeat(16 * 1024)}"}`;
    expect(await call(echo, event({ headers: {}, body: over }))).toEqual({
      status: 413,
      body: { id: 'request_too_large', message: 'The request body is too large', extras: null },
    });
    // Counted in bytes, as the WAF counts: 6,000 three-byte characters are over, though 6,000 long.
    const wide = `{"pad":"${'€'.repeat(6000)}"}`;
    expect((await call(echo, event({ headers: {}, body: wide }))).status).toBe(413);
    const atLimit = `{"pad":"${'x'.repeat(16 * 1024 - 10)}"}`;
    expect(Buffer.byteLength(atLimit)).toBe(16 * 1024);
    expect((await call(echo, event({ headers: {}, body: atLimit }))).status).not.toBe(413);
  });

  it('maps domain errors to their status', async () => {
    givenKey();
    const failing = apiHandler(endpoint('api_key', {}), async () => {
      throw new StoreNotFound();
    });
    expect(await call(failing)).toEqual({
      status: 404,
      body: { id: 'store_not_found', message: 'Store not found', extras: null },
    });
  });

  it('answers 500 internal_error without internals for anything unexpected, and logs it with the request id', async () => {
    const logged = vi.spyOn(logger, 'error').mockImplementation(() => undefined);
    const crashing = apiHandler(endpoint('public', {}), async () => {
      throw new Error('connection string postgres://secret@db');
    });
    const result = await call(crashing);
    expect(result).toEqual({
      status: 500,
      body: { id: 'internal_error', message: 'Internal server error', extras: null },
    });
    expect(logged).toHaveBeenCalledWith('unexpected error', expect.objectContaining({ requestId: 'req-1' }));
    logged.mockRestore();
  });

  it('reads the key on every request, strongly consistent, and its business once per container', async () => {
    givenKey({ lastUsedAt: new Date().toISOString() });
    await call(echo);
    await call(echo);
    await call(echo);
    const reads = documentClient.commandCalls(GetCommand).map((read) => read.args[0].input);
    expect(reads.filter((read) => read.Key?.pk === `APIKEY#${keyId}`)).toHaveLength(3);
    expect(
      reads.filter((read) => read.Key?.pk === `APIKEY#${keyId}`).every((read) => read.ConsistentRead),
    ).toBe(true);
    expect(reads.filter((read) => read.Key?.pk === `BIZ#${businessId}`)).toHaveLength(1);
  });

  it('records a key’s last use only when the last one recorded is an hour old', async () => {
    givenKey({ lastUsedAt: new Date(Date.now() - 10 * 60_000).toISOString() });
    documentClient.on(UpdateCommand).resolves({});
    await call(echo);
    expect(documentClient.commandCalls(UpdateCommand)).toHaveLength(0);
    documentClient.reset();
    clearAuthenticationCache();
    givenKey({ lastUsedAt: new Date(Date.now() - 61 * 60_000).toISOString() });
    documentClient.on(UpdateCommand).resolves({});
    expect((await call(echo)).status).toBe(200);
    const [update] = documentClient.commandCalls(UpdateCommand);
    expect(update?.args[0].input).toMatchObject({
      Key: { pk: `APIKEY#${keyId}` },
      UpdateExpression: 'SET lastUsedAt = :now',
    });
  });

  it('still checks the secret of a cached key', async () => {
    givenKey();
    await call(echo);
    expect(
      (await call(echo, event({ headers: { 'x-api-key-id': keyId, 'x-api-key': 'ppsk_wrong' } }))).status,
    ).toBe(401);
  });
});
