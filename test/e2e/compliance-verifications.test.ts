import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { verifyWebhookSignature } from '#shared/webhooks/verify-signature.ts';
import { apiClient, newMerchant, platformKey, setWebhook } from '#test/support/api-client.ts';
import { eventually } from '#test/support/eventually.ts';
import { newPhone } from '#test/support/link-requests.ts';
import { admin } from '#test/support/local-host.ts';
import { testHostEnv } from '#test/support/local-host-global-setup.ts';
import { redirectRequestBody } from '#test/support/payment-request-body.ts';
import { startWebhookReceiver, type WebhookReceiver } from '#test/support/webhook-receiver.ts';

const { config, dataDir } = inject('localHost');
const call = apiClient(config.baseUrl);
const base = '/partner_api/service_providers';
/** A level read into a container's key cache is seen fresh after this. */
const keyCacheWaitMs = Number(testHostEnv.AUTH_CACHE_TTL_SECONDS) * 1000 + 500;

const keyHeaders = (keyId: string, key: string) => ({
  'X-API-KEY-ID': keyId,
  'X-API-KEY': key,
  'content-type': 'application/json',
});

let provider: { businessId: string; headers: Record<string, string> };
let receiver: WebhookReceiver;
let secret: string;

beforeAll(async () => {
  const { businessId } = await admin(
    dataDir,
    'create-business',
    '--name',
    `Caisse Pro ${randomUUID().slice(0, 6)}`,
    '--service-provider',
  );
  const { keyId, key } = await admin(dataDir, 'create-key', '--business', businessId as string);
  provider = { businessId: businessId as string, headers: keyHeaders(keyId as string, key as string) };
  receiver = await startWebhookReceiver();
  ({ secret } = (await setWebhook(
    dataDir,
    provider.businessId,
    receiver.url,
    'COMPLIANCE_VERIFICATION_COMPLETED',
  )) as { secret: string });
});

afterAll(async () => {
  await receiver?.close();
});

/** A merchant this provider onboarded (level 0), with a key the provider made for it. */
async function onboardedMerchant() {
  const onboarded = await call('POST', `${base}/business_onboarding`, provider.headers, {
    owner: { phone: newPhone(), firstName: 'Fatou', lastName: 'Diallo' },
    business: { name: `Couture Fatou ${randomUUID().slice(0, 6)}`, activityId: 'services.tailor' },
  });
  expect(onboarded.status).toBe(200);
  const key = await call('POST', `${base}/business_api_keys`, provider.headers, {
    merchantBusinessId: onboarded.body.business.id,
    name: 'Caisse',
  });
  return {
    businessId: onboarded.body.business.id as string,
    storeId: onboarded.body.store.id as string,
    headers: keyHeaders(key.body.id, key.body.key),
  };
}

const paymentRequest = (storeId: string) => redirectRequestBody(storeId);

/** The owner fills the sandbox verification page (its form, posted as a browser does). */
async function submitIdentity(url: string, idNumber: string) {
  return fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      firstName: 'Fatou',
      lastName: 'Diallo',
      idNumber,
      'dateOfBirth-day': '12',
      'dateOfBirth-month': '4',
      'dateOfBirth-year': '1990',
    }),
  });
}

async function eventOf(verificationId: string) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const webhook = receiver.received.find((w) => JSON.parse(w.body.toString()).id === verificationId);
    if (webhook) {
      expect(webhook.headers['svc-event']).toBe('COMPLIANCE_VERIFICATION_COMPLETED');
      expect(verifyWebhookSignature(webhook.body, webhook.headers['svc-signature'] as string, secret)).toBe(
        true,
      );
      return JSON.parse(webhook.body.toString());
    }
    if (Date.now() > deadline) throw new Error(`no event for verification ${verificationId}`);
    await sleep(100);
  }
}

describe('compliance verifications', () => {
  it('approved, raise the level so a payment refused by the ceiling before is accepted after', async () => {
    const merchant = await onboardedMerchant();
    const before = await call(
      'POST',
      '/partner_api/payment_requests',
      merchant.headers,
      paymentRequest(merchant.storeId),
    );
    expect(before.status).toBe(422);
    expect(before.body.id).toBe('collection_ceiling_exceeded');

    const body = {
      type: 'kyc',
      merchantBusinessId: merchant.businessId,
      callbackUrl: 'https://caisse.example/kyc-done',
    };
    const started = await call('POST', `${base}/compliance_verifications`, provider.headers, body);
    expect(started).toEqual({
      status: 200,
      body: {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        type: 'kyc',
        status: 'pending',
        merchantBusinessId: merchant.businessId,
        url: `${config.baseUrl}/dashboard/verification/${started.body.id}`,
        callbackUrl: 'https://caisse.example/kyc-done',
      },
    });
    // The open one is returned, not a second.
    expect(await call('POST', `${base}/compliance_verifications`, provider.headers, body)).toEqual(started);

    // The url is the dashboard's page: the owner signs in first.
    const page = await fetch(started.body.url, { redirect: 'manual' });
    expect(page.status).toBe(303);
    expect(page.headers.get('location')).toBe(`${config.baseUrl}/dashboard/sign-in`);
    // The sandbox's former address leads there, and still takes the form as before.
    const former = `${config.baseUrl}/sandbox/kyc/${started.body.id}`;
    const moved = await fetch(former, { redirect: 'manual' });
    expect(moved.status).toBe(303);
    expect(moved.headers.get('location')).toBe(started.body.url);
    const submitted = await submitIdentity(former, 'CI004512387');
    expect(submitted.status).toBe(303);
    expect(submitted.headers.get('location')).toBe(
      `https://caisse.example/kyc-done?verificationId=${started.body.id}&status=approved`,
    );

    expect(await eventOf(started.body.id)).toEqual({ ...started.body, status: 'approved' });
    // Accepted once the containers' key caches have read the new level.
    const after = await eventually(
      () => call('POST', '/partner_api/payment_requests', merchant.headers, paymentRequest(merchant.storeId)),
      (answer) => answer.status !== 422,
      { timeoutMs: keyCacheWaitMs + 10_000, intervalMs: 250 },
    );
    expect(after.status).toBe(200);
    expect(after.body.status).toBe('pending');

    // Completed: a new start opens a new verification.
    const next = await call('POST', `${base}/compliance_verifications`, provider.headers, body);
    expect(next.body.id).not.toBe(started.body.id);
  });

  it('rejected by the sandbox test value, record why and leave the level', async () => {
    const merchant = await onboardedMerchant();
    const started = await call('POST', `${base}/compliance_verifications`, provider.headers, {
      type: 'kyc',
      merchantBusinessId: merchant.businessId,
    });
    const submitted = await submitIdentity(`${config.baseUrl}/sandbox/kyc/${started.body.id}`, 'CI004510000');
    expect(submitted.status).toBe(200);
    expect(await submitted.text()).toContain('Identité non confirmée');
    expect(await eventOf(started.body.id)).toMatchObject({
      status: 'rejected',
      rejectionReason: 'identity_not_confirmed',
    });
    // Time let pass on purpose, past the key caches' life: the level must not have risen.
    await sleep(keyCacheWaitMs);
    const payment = await call(
      'POST',
      '/partner_api/payment_requests',
      merchant.headers,
      paymentRequest(merchant.storeId),
    );
    expect(payment.body.id).toBe('collection_ceiling_exceeded');
  });

  it('refuse a merchant the provider is not linked to, a bad type, and keys that are not a provider’s', async () => {
    const stranger = await newMerchant(dataDir);
    const unlinked = await call('POST', `${base}/compliance_verifications`, provider.headers, {
      type: 'kyc',
      merchantBusinessId: stranger.businessId,
    });
    expect(unlinked.status).toBe(404);
    const badType = await call('POST', `${base}/compliance_verifications`, provider.headers, {
      type: 'kyb',
      merchantBusinessId: stranger.businessId,
    });
    expect(badType.status).toBe(422);
    expect(badType.body.extras.errors).toEqual([expect.objectContaining({ field: 'type', rule: 'in' })]);
    const platform = await platformKey(dataDir, stranger.businessId);
    for (const headers of [stranger.headers, keyHeaders(platform.keyId as string, platform.key as string)]) {
      const answer = await call('POST', `${base}/compliance_verifications`, headers, {
        type: 'kyc',
        merchantBusinessId: stranger.businessId,
      });
      expect(answer.status).toBe(403);
      expect(answer.body.id).toBe('forbidden_action');
    }
  });
});
