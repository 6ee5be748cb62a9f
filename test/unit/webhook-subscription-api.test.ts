import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { unknown } from 'zod/mini';
import type { JsonEndpoint } from '#shared/api/endpoint.ts';
import { createWebhookSubscriptionBody } from '#shared/api/webhook-subscriptions.ts';
import { StoreNotFound } from '#shared/errors/businesses.ts';
import { WebhookSubscriptionExists, WebhookSubscriptionNotFound } from '#shared/errors/webhooks.ts';
import { apiHandler } from '#shared/http/api-handler.ts';
import { parseInput } from '#shared/http/validation.ts';

const endpoint: JsonEndpoint = {
  name: 'testEndpoint',
  entry: 'functions/test/test-endpoint.ts',
  method: 'DELETE',
  path: '/t',
  caller: 'public',
  access: [],
  tag: 'Test',
  summary: 'A test endpoint',
  response: unknown(),
  responseDescription: 'Anything.',
};
const event = {
  httpMethod: 'DELETE',
  path: '/t',
  headers: {},
  body: null,
  isBase64Encoded: false,
  requestContext: { requestId: 'req-1' },
} as unknown as APIGatewayProxyEvent;
const context = { awsRequestId: 'aws-1' } as Context;

async function answerTo(error: Error) {
  const handler = apiHandler(endpoint, async () => {
    throw error;
  });
  const response = await handler(event, context);
  return { status: response.statusCode, body: response.body };
}

describe('errors the interface answers with a message alone', () => {
  it('"Webhook subscription not found" is 404 with exactly {"message"}', async () => {
    expect(await answerTo(new WebhookSubscriptionNotFound())).toEqual({
      status: 404,
      body: '{"message":"Webhook subscription not found"}',
    });
  });

  it('leave every other domain error with id, message and extras', async () => {
    const { status, body } = await answerTo(new StoreNotFound());
    expect(status).toBe(404);
    expect(JSON.parse(body)).toEqual({ id: 'store_not_found', message: 'Store not found', extras: null });
  });

  it('a second subscription is 409 webhook_subscription_exists', async () => {
    const { status, body } = await answerTo(new WebhookSubscriptionExists());
    expect(status).toBe(409);
    expect(JSON.parse(body)).toMatchObject({ id: 'webhook_subscription_exists', extras: null });
  });
});

describe('the create-subscription body', () => {
  const merchantBusinessId = '0b0d6c1e-6a2f-4c43-9a7e-3f0a3b6f1f11';

  afterEach(() => {
    vi.unstubAllEnvs();
  });

  function errorsOf(body: unknown) {
    try {
      parseInput(createWebhookSubscriptionBody, body);
    } catch (error) {
      return (error as { errors: unknown }).errors;
    }
    return [];
  }

  it('takes known event names only, rule "in"', () => {
    expect(
      errorsOf({
        merchantBusinessId,
        url: 'https://hooks.example.com',
        events: ['TRANSACTION_COMPLETED', 'X'],
      }),
    ).toEqual([expect.objectContaining({ field: 'events.1', rule: 'in' })]);
  });

  it('refuses a URL by the policy, rule "url", saying why', () => {
    vi.stubEnv('WEBHOOKS_ALLOW_LOOPBACK', '');
    expect(errorsOf({ merchantBusinessId, url: 'https://169.254.169.254/latest/meta-data/' })).toEqual([
      {
        field: 'url',
        rule: 'url',
        message:
          'The url field is not allowed (169.254.169.254 is a private, link-local or reserved address).',
      },
    ]);
    expect(errorsOf({ merchantBusinessId, url: 'http://hooks.example.com' })).toEqual([
      expect.objectContaining({ field: 'url', rule: 'url', message: expect.stringContaining('https') }),
    ]);
  });

  it('follows the policy of where it runs: the local host takes loopback', () => {
    vi.stubEnv('WEBHOOKS_ALLOW_LOOPBACK', 'true');
    expect(errorsOf({ merchantBusinessId, url: 'http://127.0.0.1:4000/hooks' })).toEqual([]);
  });

  it('requires the merchant and the url', () => {
    expect(errorsOf({})).toEqual([
      expect.objectContaining({ field: 'merchantBusinessId', rule: 'required' }),
      expect.objectContaining({ field: 'url', rule: 'required' }),
    ]);
  });
});
