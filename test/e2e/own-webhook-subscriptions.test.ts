import { beforeAll, describe, expect, inject, it } from 'vitest';
import { useLocalAws } from '#infra/local/local-config.ts';
import { type DashboardBrowser, signUpOwner } from '#test/support/dashboard.ts';
import { createKeyOnDashboard } from '#test/support/dashboard-setup.ts';

/**
 * `/partner_api/webhook_subscriptions`: a business sets its own subscription with its key, through
 * the provider's rules (one a business, the URL policy). A key scoped to one store is refused, and
 * another business's key finds nothing.
 */
const { config } = inject('localHost');
const baseUrl = config.baseUrl;

beforeAll(() => useLocalAws(config.endpoints, config.tableName));

async function withApiAccess() {
  const owner = await signUpOwner(baseUrl);
  const { documentClient, tableName } = await import('#shared/aws/dynamodb.ts');
  const { UpdateCommand } = await import('@aws-sdk/lib-dynamodb');
  await documentClient.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: { pk: `BIZ#${owner.businessId}`, sk: 'PROFILE' },
      UpdateExpression: 'SET apiAccessEnabled = :on',
      ExpressionAttributeValues: { ':on': true },
    }),
  );
  return owner;
}

const keyOf = async (browser: DashboardBrowser, form: Record<string, string>) =>
  (await createKeyOnDashboard(browser, form)).headers;

// biome-ignore lint/suspicious/noExplicitAny: answers are checked field by field below
type Json = any;
const json = async (response: Response): Promise<Json> => response.json();

const call = (method: string, path: string, key: Record<string, string>, body?: unknown) =>
  fetch(`${baseUrl}${path}`, {
    method,
    headers: { ...key, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });

describe('a business’s own webhook subscription on the API', () => {
  it('is listed, made once with its secret, refused to a scoped key and to another business, and deleted', async () => {
    const owner = await withApiAccess();
    const key = await keyOf(owner.browser, { name: 'Intégration', kind: 'merchant' });
    const storeId =
      /<option value="([0-9a-f-]{36})">Yopougon<\/option>/.exec(
        (await owner.browser.get('/dashboard/api-keys')).text,
      )?.[1] ?? '';
    const scoped = await keyOf(owner.browser, { name: 'Caisse', kind: 'store_platform', storeId });

    expect(await (await call('GET', '/partner_api/webhook_subscriptions', key)).json()).toEqual([]);
    const badUrl = await call('POST', '/partner_api/webhook_subscriptions', key, {
      url: 'ftp://example.com/x',
    });
    expect(badUrl.status).toBe(422);
    expect((await json(badUrl)).extras.errors[0].field).toBe('url');

    const made = await call('POST', '/partner_api/webhook_subscriptions', key, {
      url: 'http://127.0.0.1:9/hooks',
      events: ['TRANSACTION_COMPLETED', 'REFUND_COMPLETED'],
      bodyFormat: 'envelope',
    });
    expect(made.status).toBe(200);
    const subscription = await json(made);
    expect(subscription).toMatchObject({
      businessId: owner.businessId,
      name: 'Maquis Aïcha',
      events: ['TRANSACTION_COMPLETED', 'REFUND_COMPLETED'],
      bodyFormat: 'envelope',
      secret: expect.stringMatching(/^whsec_/),
    });
    const twice = await call('POST', '/partner_api/webhook_subscriptions', key, {
      url: 'http://127.0.0.1:9/x',
    });
    expect(twice.status).toBe(409);
    expect((await json(twice)).id).toBe('webhook_subscription_exists');

    const listed = await (await call('GET', '/partner_api/webhook_subscriptions', key)).json();
    expect(listed).toEqual([{ ...subscription, secret: undefined }].map(({ secret: _, ...rest }) => rest));

    const byScoped = await call('GET', '/partner_api/webhook_subscriptions', scoped);
    expect(byScoped.status).toBe(403);
    expect((await json(byScoped)).id).toBe('forbidden_action');
    expect(
      (await call('DELETE', `/partner_api/webhook_subscriptions/${subscription.id}`, scoped)).status,
    ).toBe(403);

    const other = await withApiAccess();
    const otherKey = await keyOf(other.browser, { name: 'Autre', kind: 'merchant' });
    const stranger = await call('DELETE', `/partner_api/webhook_subscriptions/${subscription.id}`, otherKey);
    expect(stranger.status).toBe(404);
    expect(await stranger.json()).toEqual({ message: 'Webhook subscription not found' });
    expect(await (await call('GET', '/partner_api/webhook_subscriptions', otherKey)).json()).toEqual([]);

    const deleted = await call('DELETE', `/partner_api/webhook_subscriptions/${subscription.id}`, key);
    expect(deleted.status).toBe(200);
    expect(await deleted.json()).toEqual({ message: 'Webhook subscription deleted' });
    expect(await (await call('GET', '/partner_api/webhook_subscriptions', key)).json()).toEqual([]);
  });
});
