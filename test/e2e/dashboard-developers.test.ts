import { describe, expect, it } from 'vitest';
import { queryAll } from '#shared/data/query.ts';
import type { Body } from '#test/support/api-client.ts';
import { signUpOwner } from '#test/support/dashboard.ts';
import {
  createKeyOnDashboard,
  expectErrorSummary,
  itemsOf,
  memberOf,
  theLocalHost,
  untilTheApiLetsIn,
  verifyFirstLevel,
} from '#test/support/dashboard-setup.ts';

/**
 * The dashboard's API keys, webhooks and audit log on the local host over real HTTP, as a browser
 * without JavaScript uses them: a key made on the page opens the API (once the business has API
 * access) and is refused with 401 from the request right after its revocation; forged posts, a
 * viewer's hand-made post and another business's ids change nothing; names are shown as text.
 */
const { baseUrl } = theLocalHost();

/** The business's keys, as the key list reads them. */
const keysOf = (businessId: string): Promise<Body[]> =>
  queryAll({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': `BIZ#${businessId}#APIKEY` },
  });

const callApi = (path: string, key: { keyId: string; secret: string }, init: RequestInit = {}) =>
  fetch(`${baseUrl}${path}`, {
    ...init,
    headers: {
      'X-API-KEY-ID': key.keyId,
      'X-API-KEY': key.secret,
      ...(init.body ? { 'content-type': 'application/json' } : {}),
    },
  });

describe('API keys on the dashboard', () => {
  it('makes a key shown once, which the API accepts once the business has API access, and refuses at once when revoked', async () => {
    const owner = await signUpOwner(baseUrl);
    const list = await owner.browser.get('/dashboard/api-keys');
    expect(list.status).toBe(200);
    expect(list.text).toContain('business_not_enabled_for_api_access');

    const { answer, keyId, secret, headers } = await createKeyOnDashboard(owner.browser, {
      name: 'Caisse <b>1</b>',
      kind: 'merchant',
    });
    expect(answer.status, answer.text.slice(0, 500)).toBe(200);
    expect(answer.text).toContain('Identifiant de la clé');
    expect(answer.text).toContain('Clé secrète');
    expect(answer.text).toContain('Caisse &lt;b&gt;1&lt;/b&gt;');
    expect(answer.text).not.toContain('<b>1</b>');
    expect(keyId).toMatch(/^[0-9a-f-]{36}$/);
    expect(secret.length).toBeGreaterThan(20);

    // Keys of a business without API access are refused as the interface says, until verification.
    expect((await callApi('/partner_api/stores', { keyId, secret })).status).toBe(403);
    await verifyFirstLevel(owner.businessId);
    // That 403 left the business in the host's key cache: the key works once the cache lets go.
    await untilTheApiLetsIn(baseUrl, headers);

    // The list shows it, its maker and its use; never its secret again.
    const listed = await owner.browser.get('/dashboard/api-keys');
    expect(listed.text).toContain(keyId);
    expect(listed.text).toContain('Aïcha Traoré');
    expect(listed.text).not.toContain(secret);
    expect(listed.text).not.toContain('>Jamais<');

    const confirm = await owner.browser.get(`/dashboard/api-keys/${keyId}/revoke`);
    expect(confirm.status).toBe(200);
    const csrf = /name="csrf" value="([^"]+)"/.exec(confirm.text)?.[1] ?? '';
    const revoked = await owner.browser.post(`/dashboard/api-keys/${keyId}/revoke`, { csrf });
    expect(revoked.status).toBe(303);
    // The very next request: no cache holds the key.
    const refused = await callApi('/partner_api/stores', { keyId, secret });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ id: 'unauthorized' });
    expect((await owner.browser.get(`/dashboard/api-keys/${keyId}/revoke`)).status).toBe(404);
  });

  it('makes a key scoped to a store, which sees that store only, and refuses an eleventh live key', async () => {
    const owner = await signUpOwner(baseUrl);
    await verifyFirstLevel(owner.businessId);
    const page = await owner.browser.get('/dashboard/api-keys');
    const storeId = /<option value="([0-9a-f-]{36})">Yopougon<\/option>/.exec(page.text)?.[1] ?? '';
    expect(storeId).not.toBe('');
    const missingStore = await createKeyOnDashboard(owner.browser, {
      name: 'Sans magasin',
      kind: 'store_platform',
    });
    expectErrorSummary(missingStore.answer, 400, 'storeId');
    const scoped = await createKeyOnDashboard(owner.browser, {
      name: 'Caisse Yopougon',
      kind: 'store_platform',
      storeId,
    });
    expect(scoped.answer.status).toBe(200);
    const stores = (await (await callApi('/partner_api/stores', scoped)).json()) as { id: string }[];
    expect(stores.map((store) => store.id)).toEqual([storeId]);
    expect((await keysOf(owner.businessId))[0]).toMatchObject({
      kind: 'platform',
      storeId,
      memberId: expect.any(String),
    });

    for (let made = 1; made < 10; made++) {
      expect(
        (await createKeyOnDashboard(owner.browser, { name: `Clé ${made}`, kind: 'merchant' })).answer.status,
      ).toBe(200);
    }
    const eleventh = await createKeyOnDashboard(owner.browser, { name: 'Une de trop', kind: 'platform' });
    expect(eleventh.answer.status).toBe(409);
    expect(eleventh.answer.text).toContain('10 clés actives');
    expect(await keysOf(owner.businessId)).toHaveLength(10);
  });

  it('refuses a post without the token or from another site, and writes nothing', async () => {
    const owner = await signUpOwner(baseUrl);
    const noToken = await owner.browser.post('/dashboard/api-keys', { name: 'Forgée', kind: 'merchant' });
    expect(noToken.status).toBe(403);
    const csrf = await owner.browser.csrfOf('/dashboard/api-keys');
    const foreign = await owner.browser.post(
      '/dashboard/api-keys',
      { csrf, name: 'Forgée', kind: 'merchant' },
      { origin: 'https://evil.example' },
    );
    expect(foreign.status).toBe(403);
    const webhook = await owner.browser.post('/dashboard/webhooks', {
      url: 'http://127.0.0.1:9/hook',
      name: 'x',
      bodyFormat: 'flat',
      'event.TRANSACTION_COMPLETED': 'on',
    });
    expect(webhook.status).toBe(403);
    expect(await keysOf(owner.businessId)).toHaveLength(0);
    expect(await itemsOf(owner.businessId, 'WEBHOOK')).toHaveLength(0);
    expect((await itemsOf(owner.businessId, 'AUDIT#')).map((entry) => entry.action)).toEqual(['sign_in']);
  });

  it('lets a viewer read the keys but refuses its hand-made post to make one, and the audit log', async () => {
    const owner = await signUpOwner(baseUrl);
    const viewer = await memberOf(owner, 'viewer');
    const page = await viewer.get('/dashboard/api-keys');
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('name="kind"');
    const csrf = await viewer.csrfOf('/dashboard');
    const made = await viewer.post('/dashboard/api-keys', {
      csrf,
      name: 'Par un lecteur',
      kind: 'merchant',
    });
    expect(made.status).toBe(403);
    const hook = await viewer.post('/dashboard/webhooks/test', { csrf });
    expect(hook.status).toBe(403);
    expect(await keysOf(owner.businessId)).toHaveLength(0);
    expect((await viewer.get('/dashboard/audit')).status).toBe(403);
    // A developer may: keys are their work.
    const developer = await memberOf(owner, 'developer');
    expect(
      (await createKeyOnDashboard(developer, { name: 'Par une développeuse', kind: 'merchant' })).answer
        .status,
    ).toBe(200);
  });

  it('answers 404 to a session of another business naming this one’s key, and leaves the key working', async () => {
    const a = await signUpOwner(baseUrl);
    await verifyFirstLevel(a.businessId);
    const key = await createKeyOnDashboard(a.browser, { name: 'Caisse A', kind: 'merchant' });
    const b = await signUpOwner(baseUrl);
    expect((await b.browser.get(`/dashboard/api-keys/${key.keyId}/revoke`)).status).toBe(404);
    const csrf = await b.browser.csrfOf('/dashboard/api-keys');
    const revoke = await b.browser.post(`/dashboard/api-keys/${key.keyId}/revoke`, { csrf });
    expect(revoke.status).toBe(404);
    expect(revoke.text).not.toContain('Caisse A');
    expect((await keysOf(a.businessId))[0]?.revokedAt).toBeUndefined();
    expect((await itemsOf(b.businessId, 'AUDIT#')).map((entry) => entry.action)).not.toContain(
      'api_key_revoked',
    );
    expect((await b.browser.get('/dashboard/api-keys')).text).not.toContain(key.keyId);
  });
});
