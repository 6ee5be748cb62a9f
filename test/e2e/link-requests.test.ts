import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { verifyWebhookSignature } from '#shared/webhooks/verify-signature.ts';
import { apiClient, newMerchant, platformKey, setWebhook } from '#test/support/api-client.ts';
import { newOwner, newPhone, smsCodeFor } from '#test/support/link-requests.ts';
import { admin } from '#test/support/local-host.ts';
import { startWebhookReceiver, type WebhookReceiver } from '#test/support/webhook-receiver.ts';

const { config, dataDir } = inject('localHost');
const call = apiClient(config.baseUrl);
const path = '/partner_api/service_providers/business_link_requests';

const keyHeaders = (keyId: string, key: string) => ({
  'X-API-KEY-ID': keyId,
  'X-API-KEY': key,
  'content-type': 'application/json',
});

async function newProvider(name: string) {
  const { businessId } = await admin(dataDir, 'create-business', '--name', name, '--service-provider');
  const { keyId, key } = await admin(dataDir, 'create-key', '--business', businessId as string);
  return { businessId: businessId as string, headers: keyHeaders(keyId as string, key as string) };
}

let provider: Awaited<ReturnType<typeof newProvider>>;
let otherProvider: Awaited<ReturnType<typeof newProvider>>;
let receiver: WebhookReceiver;
let secret: string;

beforeAll(async () => {
  [provider, otherProvider] = await Promise.all([
    newProvider(`Caisse Pro ${randomUUID().slice(0, 6)}`),
    newProvider(`Autre ${randomUUID().slice(0, 6)}`),
  ]);
  receiver = await startWebhookReceiver();
  const subscription = await setWebhook(
    dataDir,
    provider.businessId,
    receiver.url,
    'SERVICE_PROVIDER_LINK_REQUEST',
  );
  secret = subscription.secret as string;
});

afterAll(async () => {
  await receiver?.close();
});

/** The provider's events about one request, verified, in the order they came. */
async function eventsOf(requestId: string, count: number) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const mine = receiver.received.filter((webhook) => JSON.parse(webhook.body.toString()).id === requestId);
    if (mine.length >= count) {
      for (const webhook of mine) {
        expect(webhook.headers['svc-event']).toBe('SERVICE_PROVIDER_LINK_REQUEST');
        expect(verifyWebhookSignature(webhook.body, webhook.headers['svc-signature'] as string, secret)).toBe(
          true,
        );
      }
      return mine.map((webhook) => JSON.parse(webhook.body.toString()));
    }
    if (Date.now() > deadline) throw new Error(`${mine.length} events for ${requestId}, ${count} expected`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('business link requests', () => {
  it('are created pending for the owner’s business, with a code sent by SMS, and shown to their provider only', async () => {
    const owner = await newOwner(dataDir);
    const created = await call('POST', path, provider.headers, { phone: owner.phone });
    expect(created.status).toBe(200);
    expect(created.body).toEqual([
      {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        status: 'pending',
        merchantBusinessId: owner.businessId,
        merchantBusinessName: expect.stringContaining('Pharmacie du Plateau'),
        serviceProviderBusinessId: provider.businessId,
        serviceProviderBusinessName: expect.stringContaining('Caisse Pro'),
        serviceProviderMemberId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        ownerPhone: owner.phone,
        expiresAt: expect.any(String),
        createdAt: expect.any(String),
      },
    ]);
    const [request] = created.body;
    const lifetime = Date.parse(request.expiresAt) - Date.parse(request.createdAt);
    expect(lifetime).toBe(7 * 24 * 3600 * 1000);
    expect(await smsCodeFor(config.baseUrl, request.id)).toMatch(/^\d{6}$/);

    expect(await call('GET', `${path}/${request.id}`, provider.headers)).toEqual({
      status: 200,
      body: request,
    });
    const hidden = await call('GET', `${path}/${request.id}`, otherProvider.headers);
    expect(hidden.status).toBe(404);
    expect(hidden.body.id).toBe('business_link_request_not_found');
    expect((await call('GET', `${path}/${randomUUID()}`, provider.headers)).status).toBe(404);

    const [pending] = await eventsOf(request.id, 1);
    expect(pending).toMatchObject({
      id: request.id,
      status: 'pending',
      merchantBusinessId: owner.businessId,
    });
  });

  it('answer each error of the interface', async () => {
    const unknown = await call('POST', path, provider.headers, { phone: newPhone() });
    expect(unknown.status).toBe(404);
    expect(unknown.body.id).toBe('user_not_found');

    const { phone } = await admin(dataDir, 'create-user', '--phone', newPhone());
    const ownsNothing = await call('POST', path, provider.headers, { phone });
    expect(ownsNothing.status).toBe(409);
    expect(ownsNothing.body.id).toBe('no_owned_business');

    const owner = await newOwner(dataDir, 'Quincaillerie');
    await admin(dataDir, 'link', '--provider', provider.businessId, '--merchant', owner.businessId);
    const linked = await call('POST', path, provider.headers, { phone: owner.phone });
    expect(linked).toEqual({
      status: 409,
      body: { id: 'already_linked', message: expect.any(String), extras: owner.businessId },
    });

    const invalid = await call('POST', path, provider.headers, { phone: 'abc' });
    expect(invalid.status).toBe(422);
    expect(invalid.body.extras.errors).toEqual([
      { field: 'phone', rule: 'format', message: expect.any(String) },
    ]);
  });

  it('are approved by the sandbox helper: the link is made and the provider told', async () => {
    const owner = await newOwner(dataDir, 'Maquis');
    const [request] = (await call('POST', path, provider.headers, { phone: owner.phone })).body;
    const refused = await call(
      'POST',
      `/sandbox/business_link_requests/${request.id}/approve`,
      otherProvider.headers,
    );
    expect(refused.status).toBe(404);
    const approved = await call(
      'POST',
      `/sandbox/business_link_requests/${request.id}/approve`,
      provider.headers,
    );
    expect(approved).toEqual({ status: 200, body: { ...request, status: 'approved' } });
    const links = await call('GET', '/partner_api/service_providers/business_links', provider.headers);
    expect(links.body.map((link: { merchantBusinessId: string }) => link.merchantBusinessId)).toContain(
      owner.businessId,
    );
    const again = await call(
      'POST',
      `/sandbox/business_link_requests/${request.id}/decline`,
      provider.headers,
    );
    expect(again.status).toBe(409);
    const events = await eventsOf(request.id, 2);
    // Webhooks keep no order between events: each is its own delivery.
    expect(events.map((event) => event.status).sort()).toEqual(['approved', 'pending']);
  });

  it('are declined by the sandbox helper: no link', async () => {
    const owner = await newOwner(dataDir, 'Salon');
    const [request] = (await call('POST', path, provider.headers, { phone: owner.phone })).body;
    const declined = await call(
      'POST',
      `/sandbox/business_link_requests/${request.id}/decline`,
      provider.headers,
    );
    expect(declined.body.status).toBe('declined');
    const links = await call('GET', '/partner_api/service_providers/business_links', provider.headers);
    expect(links.body.map((link: { merchantBusinessId: string }) => link.merchantBusinessId)).not.toContain(
      owner.businessId,
    );
    // No order between events (the approval's test above says why): a busy host sent these reversed.
    const events = await eventsOf(request.id, 2);
    expect(events.map((event) => event.status).sort()).toEqual(['declined', 'pending']);
  });

  it('refuse merchant and platform keys', async () => {
    const merchant = await newMerchant(dataDir);
    const platform = await platformKey(dataDir, merchant.businessId);
    for (const headers of [merchant.headers, keyHeaders(platform.keyId as string, platform.key as string)]) {
      for (const [method, url] of [
        ['POST', path],
        ['GET', `${path}/${randomUUID()}`],
        ['POST', `/sandbox/business_link_requests/${randomUUID()}/approve`],
      ] as const) {
        const answer = await call(
          method,
          url,
          headers,
          method === 'POST' ? { phone: newPhone() } : undefined,
        );
        expect(answer.status, `${method} ${url}`).toBe(403);
        expect(answer.body.id).toBe('forbidden_action');
      }
    }
  });
});
