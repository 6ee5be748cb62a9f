import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SmileIdFake, startSmileIdFake } from '#test/fakes/smileid-fake.ts';
import { apiClient } from '#test/support/api-client.ts';
import { signUpOwner } from '#test/support/dashboard.ts';
import { eventually } from '#test/support/eventually.ts';
import { admin, type LocalHost, newDataDir, startLocalHost } from '#test/support/local-host.ts';
import { testHostEnv } from '#test/support/local-host-global-setup.ts';
import { redirectRequestBody } from '#test/support/payment-request-body.ts';

/**
 * The local host with its identity checks sent to Smile ID, as docs/operations/identity.md says:
 * IDENTITY_VENDOR=smileid, SMILE_ID_BASE_URL, SMILE_ID_PARTNER_ID and SMILE_ID_API_KEY pointing at
 * a server that speaks Smile ID's published API (the contract fake, over HTTP), whose signed
 * results reach the host's `/identity_callbacks/smileid`. A new owner signs up on the dashboard,
 * checks its identity, and collects once its level is raised.
 */
let host: LocalHost;
let smileId: SmileIdFake;

beforeAll(async () => {
  const partnerId = '085';
  const apiKey = randomUUID();
  smileId = await startSmileIdFake({ partnerId, apiKey, answerDelayMs: 300 });
  host = await startLocalHost(newDataDir(), {
    ...testHostEnv,
    IDENTITY_VENDOR: 'smileid',
    SMILE_ID_BASE_URL: `${smileId.url}/v1`,
    SMILE_ID_PARTNER_ID: partnerId,
    SMILE_ID_API_KEY: apiKey,
  });
}, 180_000);

afterAll(async () => {
  await host?.stop();
  await smileId?.close();
});

describe('an owner checked by Smile ID on the local host', () => {
  it('signs up, is checked through Smile ID’s callback, reaches level 1 and collects', async () => {
    const { browser, businessId } = await signUpOwner(host.config.baseUrl);
    const storeId = /data-store-id="([^"]+)"/.exec((await browser.get('/dashboard')).text)?.[1] ?? '';
    const { keyId, key } = await admin(host.dataDir, 'create-key', '--business', businessId);
    const headers = { 'X-API-KEY-ID': keyId as string, 'X-API-KEY': key as string };
    const call = apiClient(host.config.baseUrl);
    const ask = () => call('POST', '/partner_api/payment_requests', headers, redirectRequestBody(storeId));
    // Level 0: no API access yet.
    expect((await ask()).status).toBe(403);

    const started = await browser.post('/dashboard/verification', { csrf: await browser.csrfOf() });
    expect(started.status).toBe(303);
    const path = new URL(started.location ?? '').pathname;
    const submitted = await browser.post(path, {
      csrf: await browser.csrfOf(path),
      firstName: 'Aïcha',
      lastName: 'Traoré',
      idNumber: 'CI0012345670',
      'dateOfBirth-day': '27',
      'dateOfBirth-month': '3',
      'dateOfBirth-year': '1990',
    });
    // Under way: Smile ID answers by callback.
    expect(submitted.status).toBe(200);
    expect(submitted.text).toContain('data-status="submitted"');
    const page = await eventually(
      () => browser.get(path),
      (answer) => !answer.text.includes('data-status="submitted"'),
      { timeoutMs: 30_000, intervalMs: 200 },
    );
    expect(page.text).toContain('data-status="approved"');
    expect(smileId.callbacksSent).toEqual([expect.objectContaining({ status: 200 })]);
    // Level 1, seen once the key's cached level expires.
    const created = await eventually(ask, (answer) => answer.status === 200, { timeoutMs: 30_000 });
    expect(created.status).toBe(200);
    expect(created.body.status).toBe('pending');
  });
});
