import { randomInt, randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { apiClient, newMerchant, platformKey } from '#test/support/api-client.ts';
import { admin } from '#test/support/local-host.ts';
import { testHostEnv } from '#test/support/local-host-global-setup.ts';

const { config, dataDir } = inject('localHost');
const call = apiClient(config.baseUrl);
const base = '/partner_api/service_providers';
const uuid = /^[0-9a-f-]{36}$/;
/** How long every container's key cache may take to forget a key. */
const keyCacheWaitMs = Number(testHostEnv.AUTH_CACHE_TTL_SECONDS) * 1000 + 500;

const keyHeaders = (keyId: string, key: string) => ({
  'X-API-KEY-ID': keyId,
  'X-API-KEY': key,
  'content-type': 'application/json',
});

async function newProvider(name = 'Caisse Pro') {
  const { businessId } = await admin(
    dataDir,
    'create-business',
    '--name',
    `${name} ${randomUUID().slice(0, 6)}`,
    '--service-provider',
  );
  const { keyId, key } = await admin(dataDir, 'create-key', '--business', businessId as string);
  return { businessId: businessId as string, headers: keyHeaders(keyId as string, key as string) };
}

const newPhone = () => `+22507${String(randomInt(0, 100_000_000)).padStart(8, '0')}`;

const onboarding = (phone = newPhone(), business: Record<string, unknown> = {}) => ({
  owner: { phone, firstName: 'Aminata', lastName: 'Ouédraogo', email: 'aminata@example.com' },
  business: { name: `Maquis Chez Ami ${randomUUID().slice(0, 6)}`, activityId: 'food.maquis', ...business },
});

let provider: Awaited<ReturnType<typeof newProvider>>;
let otherProvider: Awaited<ReturnType<typeof newProvider>>;
/** Keys that must be refused on every provider route: a merchant's and a platform key. */
let refusedKeys: Record<string, Record<string, string>>;

beforeAll(async () => {
  [provider, otherProvider] = await Promise.all([newProvider(), newProvider('Autre Intégrateur')]);
  const merchant = await newMerchant(dataDir, 'Boutique');
  const platform = await platformKey(dataDir, merchant.businessId);
  refusedKeys = {
    merchant: merchant.headers,
    platform: keyHeaders(platform.keyId as string, platform.key as string),
  };
});

describe('service-provider routes', () => {
  it.each([
    ['GET', `${base}/activities`],
    ['POST', `${base}/business_onboarding`],
    ['GET', `${base}/business_links`],
    ['DELETE', `${base}/business_links/${randomUUID()}`],
    ['POST', `${base}/business_api_keys`],
  ])('refuse %s %s to the keys of a business that is not a service provider', async (method, path) => {
    for (const headers of Object.values(refusedKeys)) {
      const answer = await call(method, path, headers, method === 'POST' ? onboarding() : undefined);
      expect(answer.status).toBe(403);
      expect(answer.body.id).toBe('forbidden_action');
    }
  });
});

describe('activities', () => {
  it('lists enabled categories and activities, sorted with accents in French by default', async () => {
    const { status, body } = await call('GET', `${base}/activities`, provider.headers);
    expect(status).toBe(200);
    const names = body.map((category: { name: string }) => category.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'fr')));
    // "Éducation" sorts among the E's, before "Hôtellerie", not after every ASCII name.
    expect(names.indexOf('Éducation')).toBeLessThan(names.indexOf('Hôtellerie et loisirs'));
    expect(names.indexOf('Commerce')).toBeLessThan(names.indexOf('Éducation'));
    const food = body.find((category: { id: string }) => category.id === 'food');
    expect(food.activities).toContainEqual({ id: 'food.maquis', name: 'Maquis' });
    const agriculture = body.find((category: { id: string }) => category.id === 'agriculture');
    const activityNames = agriculture.activities.map((activity: { name: string }) => activity.name);
    expect(activityNames.indexOf('Élevage de bétail')).toBeLessThan(
      activityNames.indexOf('Intrants agricoles'),
    );
    // Disabled entries: an activity of an enabled category, and a whole category.
    const ids = body.flatMap((category: { activities: { id: string }[] }) =>
      category.activities.map((a) => a.id),
    );
    expect(ids).not.toContain('services.lottery');
    expect(ids).not.toContain('mining.gold');
    expect(body.map((category: { id: string }) => category.id)).not.toContain('mining');
    for (const category of body) {
      expect(Object.keys(category).sort()).toEqual(['activities', 'id', 'name']);
      expect(category.activities.length).toBeGreaterThan(0);
    }
  });

  it('answers in English when asked, sorted in English', async () => {
    const { status, body } = await call('GET', `${base}/activities`, {
      ...provider.headers,
      'Accept-Language': 'en-GB,en;q=0.9,fr;q=0.5',
    });
    expect(status).toBe(200);
    const names = body.map((category: { name: string }) => category.name);
    expect(names).toContain('Food and drink');
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en')));
    const food = body.find((category: { id: string }) => category.id === 'food');
    expect(food.activities).toContainEqual({ id: 'food.bakery', name: 'Bakery and pastry' });
  });
});

describe('business onboarding', () => {
  it('creates the owner, the business with API access at level 0, its store and the link', async () => {
    const request = onboarding('07 12 34 56 78'.replace('12', String(randomInt(10, 99))), {
      storeName: 'Maquis Cocody',
      referralCode: 'PROMO-ABJ',
    });
    const { status, body } = await call('POST', `${base}/business_onboarding`, provider.headers, request);
    expect(status).toBe(200);
    expect(body).toEqual({
      business: {
        id: expect.stringMatching(uuid),
        name: request.business.name,
        activityId: 'food.maquis',
        apiAccessEnabled: true,
        verificationLevel: 0,
      },
      owner: {
        id: expect.stringMatching(uuid),
        phone: expect.stringMatching(/^\+22507\d{8}$/),
        firstName: 'Aminata',
        lastName: 'Ouédraogo',
      },
      store: { id: expect.stringMatching(uuid), name: 'Maquis Cocody', currency: 'XOF', country: 'CI' },
      link: {
        id: expect.stringMatching(uuid),
        merchantBusinessId: body.business.id,
        merchantBusinessName: request.business.name,
        serviceProviderBusinessId: provider.businessId,
        serviceProviderBusinessName: expect.stringContaining('Caisse Pro'),
        linkedAt: expect.any(String),
      },
    });
    const links = await call('GET', `${base}/business_links`, provider.headers);
    expect(links.body).toContainEqual(body.link);
  });

  it('puts the first store in the country asked, else in the owner’s phone’s', async () => {
    const senegalese = `+22177${String(randomInt(1_000_000, 9_999_999))}`;
    const fromPhone = await call(
      'POST',
      `${base}/business_onboarding`,
      provider.headers,
      onboarding(senegalese),
    );
    expect(fromPhone.status, JSON.stringify(fromPhone.body)).toBe(200);
    expect(fromPhone.body.store.country).toBe('SN');
    const asked = onboarding(`+22177${String(randomInt(1_000_000, 9_999_999))}`, { storeCountry: 'ML' });
    const inMali = await call('POST', `${base}/business_onboarding`, provider.headers, asked);
    expect(inMali.body.store.country).toBe('ML');
    const unknown = onboarding(`+22177${String(randomInt(1_000_000, 9_999_999))}`, { storeCountry: 'FR' });
    const refused = await call('POST', `${base}/business_onboarding`, provider.headers, unknown);
    expect(refused.status).toBe(422);
    expect(refused.body.extras.errors).toContainEqual(
      expect.objectContaining({ field: 'business.storeCountry', rule: 'in' }),
    );
  });

  it('refuses a phone that belongs to a user (409 user_already_exists), leaving nothing behind', async () => {
    const { phone } = await admin(dataDir, 'create-user', '--phone', newPhone());
    const before = await call('GET', `${base}/business_links`, provider.headers);
    const answer = await call('POST', `${base}/business_onboarding`, provider.headers, onboarding(phone));
    expect(answer.status).toBe(409);
    expect(answer.body).toEqual({ id: 'user_already_exists', message: expect.any(String), extras: null });
    expect(await call('GET', `${base}/business_links`, provider.headers)).toEqual(before);
  });

  it('onboards a phone once when two requests race: the other is 409 and wrote nothing', async () => {
    const phone = newPhone();
    const before = await call('GET', `${base}/business_links`, provider.headers);
    const answers = await Promise.all(
      [1, 2].map(() => call('POST', `${base}/business_onboarding`, provider.headers, onboarding(phone))),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const after = await call('GET', `${base}/business_links`, provider.headers);
    expect(after.body.length).toBe(before.body.length + 1);
  });

  it('refuses an unknown or disabled activity (422, rule in) and names missing fields', async () => {
    for (const activityId of ['food.unknown', 'services.lottery', 'mining.gold']) {
      const answer = await call(
        'POST',
        `${base}/business_onboarding`,
        provider.headers,
        onboarding(newPhone(), { activityId }),
      );
      expect(answer.status).toBe(422);
      expect(answer.body.extras.errors).toEqual([
        { field: 'business.activityId', rule: 'in', message: expect.any(String) },
      ]);
    }
    const missing = await call('POST', `${base}/business_onboarding`, provider.headers, {
      owner: { phone: 'not a phone' },
      business: {},
    });
    expect(missing.status).toBe(422);
    const rules = missing.body.extras.errors.map(
      (e: { field: string; rule: string }) => `${e.field}:${e.rule}`,
    );
    expect(rules).toEqual(
      expect.arrayContaining([
        'owner.phone:format',
        'owner.firstName:required',
        'owner.lastName:required',
        'business.name:required',
        'business.activityId:required',
      ]),
    );
  });
});

describe('business links and merchant API keys', () => {
  async function onboarded(by = provider) {
    const { body } = await call('POST', `${base}/business_onboarding`, by.headers, onboarding());
    return body.business.id as string;
  }

  it('makes a merchant key tied to the provider member; detaching revokes it and unlists the link', async () => {
    const merchantId = await onboarded();
    const created = await call('POST', `${base}/business_api_keys`, provider.headers, {
      merchantBusinessId: merchantId,
      name: 'Caisse 1',
    });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      id: expect.stringMatching(uuid),
      name: 'Caisse 1',
      businessId: merchantId,
      businessMemberId: expect.stringMatching(uuid),
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      key: expect.any(String),
    });
    const merchantHeaders = keyHeaders(created.body.id, created.body.key);
    const stores = await call('GET', '/partner_api/stores', merchantHeaders);
    expect(stores.status).toBe(200);
    expect(stores.body).toHaveLength(1);

    // The merchant's own key, made by the operator, is not the provider's to revoke.
    const own = await admin(dataDir, 'create-key', '--business', merchantId);
    const ownHeaders = keyHeaders(own.keyId as string, own.key as string);

    const detached = await call('DELETE', `${base}/business_links/${merchantId}`, provider.headers);
    expect(detached.status).toBe(200);
    const links = await call('GET', `${base}/business_links`, provider.headers);
    expect(links.body.map((link: { merchantBusinessId: string }) => link.merchantBusinessId)).not.toContain(
      merchantId,
    );
    // Refused once the containers' key caches have let the detached key go.
    await expect
      .poll(async () => (await call('GET', '/partner_api/stores', merchantHeaders)).status, {
        timeout: keyCacheWaitMs + 10_000,
        interval: 250,
      })
      .toBe(401);
    expect((await call('GET', '/partner_api/stores', ownHeaders)).status).toBe(200);

    const again = await call('DELETE', `${base}/business_links/${merchantId}`, provider.headers);
    expect(again.status).toBe(404);
    const afterDetach = await call('POST', `${base}/business_api_keys`, provider.headers, {
      merchantBusinessId: merchantId,
      name: 'Caisse 2',
    });
    expect(afterDetach.status).toBe(404);
  });

  it('refuses a key for a merchant the provider did not onboard, or is not linked to', async () => {
    const othersMerchant = await onboarded(otherProvider);
    const stranger = await newMerchant(dataDir, 'Quincaillerie');
    // Linked by the operator, but not onboarded by this provider: the interface asks for both.
    await admin(dataDir, 'link', '--provider', provider.businessId, '--merchant', stranger.businessId);
    for (const merchantBusinessId of [othersMerchant, stranger.businessId, randomUUID()]) {
      const answer = await call('POST', `${base}/business_api_keys`, provider.headers, {
        merchantBusinessId,
        name: 'Caisse',
      });
      expect(answer.status).toBe(404);
      expect(answer.body.id).toBe('business_not_found');
    }
    // Another provider neither sees nor detaches this provider's links.
    const mine = await onboarded();
    const othersList = await call('GET', `${base}/business_links`, otherProvider.headers);
    expect(othersList.body.map((l: { merchantBusinessId: string }) => l.merchantBusinessId)).not.toContain(
      mine,
    );
    expect((await call('DELETE', `${base}/business_links/${mine}`, otherProvider.headers)).status).toBe(404);
    const key = await call('POST', `${base}/business_api_keys`, otherProvider.headers, {
      merchantBusinessId: mine,
      name: 'Caisse',
    });
    expect(key.status).toBe(404);
  });
});
