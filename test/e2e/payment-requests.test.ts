import { createHmac, randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { apiClient, newStore } from '#test/support/api-client.ts';
import { eventually } from '#test/support/eventually.ts';
import { admin } from '#test/support/local-host.ts';
import { redirectRequestBody } from '#test/support/payment-request-body.ts';
import { readProviderReference } from '#test/support/provider-reference.ts';

const { config, dataDir } = inject('localHost');
const { baseUrl } = config;

/** A merchant of its own (store, soundbox, key), so these tests leave the demo business alone. */
const demo = {
  businessId: '',
  storeId: '',
  deviceId: `Till-${randomUUID().slice(0, 8)}`,
  apiKeyId: '',
  apiKey: '',
};
let demoHeaders: Record<string, string> = {};
beforeAll(async () => {
  ({ businessId: demo.businessId } = await admin(dataDir, 'create-business', '--name', 'Maquis Chez Awa'));
  ({ storeId: demo.storeId } = await admin(
    dataDir,
    'create-store',
    '--business',
    demo.businessId,
    '--name',
    'Maquis Cocody',
  ));
  await admin(dataDir, 'create-device', '--store', demo.storeId, '--device-id', demo.deviceId);
  ({ keyId: demo.apiKeyId, key: demo.apiKey } = (await admin(
    dataDir,
    'create-key',
    '--business',
    demo.businessId,
  )) as {
    keyId: string;
    key: string;
  });
  demoHeaders = {
    'X-API-KEY-ID': demo.apiKeyId,
    'X-API-KEY': demo.apiKey,
    'content-type': 'application/json',
  };
});

const send = apiClient(baseUrl);

/** As the test's merchant unless told otherwise (read at call time, after beforeAll made it). */
const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = demoHeaders) =>
  send(method, path, headers, body);

const redirectRequest = (overrides: Record<string, unknown> = {}, data: Record<string, unknown> = {}) =>
  redirectRequestBody(demo.storeId, {
    data: { successUrl: 'myapp://paid?reference=42', errorUrl: 'https://shop.example/failed?x=1', ...data },
    ...overrides,
  });

const soundboxRequest = (deviceId: string | undefined, urls: Record<string, string> = {}) =>
  redirectRequest({
    paymentDetails: { type: 'soundbox', data: { paymentMethod: 'mtn', deviceId, ...urls } },
  });

const directRequest = (payerPhone: string) =>
  redirectRequest({}, { paymentMethod: 'orange', forceProviderDirect: true, payerPhone });

const waitForStatus = (id: string, until: (status: string) => boolean, timeoutMs = 15_000) =>
  eventually(
    async () => (await call('GET', `/partner_api/payment_requests/${id}`)).body,
    (body) => until(body.status),
    { timeoutMs, intervalMs: 250 },
  );

async function balance() {
  return (await call('GET', `/partner_api/stores/${demo.storeId}/balance`)).body.amount as number;
}

describe('POST /partner_api/payment_requests', () => {
  it('answers the request with everything echoed exactly, pending, and a redirectUrl to its hosted page', async () => {
    const sent = redirectRequest();
    const { status, body } = await call('POST', '/partner_api/payment_requests', sent);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      storeId: sent.storeId,
      reference: sent.reference,
      type: 'redirect',
      paymentMethod: 'wave',
      status: 'pending',
      errorReason: null,
      transaction: null,
    });
    expect(body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.redirectUrl).toBe(`${baseUrl}/payment/${body.id}`);
  });

  it('takes orange_money, which public integrations send, as orange: answered, kept and paid as orange', async () => {
    const { status, body } = await call(
      'POST',
      '/partner_api/payment_requests',
      redirectRequest({}, { paymentMethod: 'orange_money' }),
    );
    expect(status).toBe(200);
    expect(body.paymentMethod).toBe('orange');
    const approved = await call('POST', `/sandbox/payment_requests/${body.id}/approve`, {
      payerPhone: '+2250700000001',
    });
    expect(approved.body).toMatchObject({ status: 'success', paymentMethod: 'orange' });
    expect((await call('GET', `/partner_api/payment_requests/${body.id}`)).body.paymentMethod).toBe('orange');
  });

  it.each([
    ['storeId missing', { storeId: undefined }, {}, 'storeId', 'required'],
    ['storeId not a UUID', { storeId: 'store-1' }, {}, 'storeId', 'uuid'],
    ['amountCents below 100', { amountCents: 99 }, {}, 'amountCents', 'min'],
    ['amountCents not whole', { amountCents: 100.5 }, {}, 'amountCents', 'type'],
    ['reference missing', { reference: undefined }, {}, 'reference', 'required'],
    ['reference too long', { reference: 'r'.repeat(101) }, {}, 'reference', 'max'],
    ['currency missing', { currency: undefined }, {}, 'currency', 'required'],
    [
      'paymentMethod outside the five',
      {},
      { paymentMethod: 'paypal' },
      'paymentDetails.data.paymentMethod',
      'in',
    ],
    ['successUrl missing', {}, { successUrl: undefined }, 'paymentDetails.data.successUrl', 'required'],
    ['errorUrl missing', {}, { errorUrl: undefined }, 'paymentDetails.data.errorUrl', 'required'],
    [
      'successUrl runs script',
      {},
      { successUrl: 'javascript:alert(1)' },
      'paymentDetails.data.successUrl',
      'url',
    ],
    [
      'direct without payerPhone',
      {},
      { forceProviderDirect: true },
      'paymentDetails.data.payerPhone',
      'required',
    ],
    [
      'payerPhone in a national form, which has no country to be read in',
      {},
      { payerPhone: '0700000001' },
      'paymentDetails.data.payerPhone',
      'format',
    ],
  ])('answers 422 validation_error when %s', async (_case, overrides, data, field, rule) => {
    const { status, body } = await call(
      'POST',
      '/partner_api/payment_requests',
      redirectRequest(overrides, data),
    );
    expect(status).toBe(422);
    expect(body.id).toBe('validation_error');
    expect(body.extras.errors).toContainEqual(expect.objectContaining({ field, rule }));
  });

  it('answers 422 naming currency when it is not the store currency', async () => {
    const { status, body } = await call(
      'POST',
      '/partner_api/payment_requests',
      redirectRequest({ currency: 'EUR' }),
    );
    expect(status).toBe(422);
    expect(body.extras.errors).toEqual([expect.objectContaining({ field: 'currency', rule: 'in' })]);
  });

  it('answers 404 for an unknown store and for another business store', async () => {
    const { businessId } = await admin(dataDir, 'create-business', '--name', 'Other shop');
    const { storeId } = await admin(
      dataDir,
      'create-store',
      '--business',
      businessId as string,
      '--name',
      'Theirs',
    );
    for (const id of [storeId, randomUUID()]) {
      const { status, body } = await call(
        'POST',
        '/partner_api/payment_requests',
        redirectRequest({ storeId: id }),
      );
      expect(status).toBe(404);
      expect(body.id).toBe('store_not_found');
    }
  });

  it('answers 409 payment_request_exists_with_reference for a reference used before', async () => {
    const sent = redirectRequest();
    expect((await call('POST', '/partner_api/payment_requests', sent)).status).toBe(200);
    const again = await call('POST', '/partner_api/payment_requests', { ...sent, amountCents: 200 });
    expect(again.status).toBe(409);
    expect(again.body.id).toBe('payment_request_exists_with_reference');
  });

  it('answers 400 to a body that is not JSON', async () => {
    const { status, body } = await call('POST', '/partner_api/payment_requests', '{"storeId":');
    expect(status).toBe(400);
    expect(body.id).toBe('bad_request');
  });
});

describe('Idempotency-Key', () => {
  it('gives the first answer again for the same key and body, creating one request', async () => {
    const key = randomUUID();
    const sent = redirectRequest();
    const headers = { ...demoHeaders, 'Idempotency-Key': key };
    const first = await call('POST', '/partner_api/payment_requests', sent, headers);
    const second = await call('POST', '/partner_api/payment_requests', sent, headers);
    expect(first.status).toBe(200);
    expect(second).toEqual(first);
    // Without the key, the same reference is a duplicate: only one request exists.
    expect((await call('POST', '/partner_api/payment_requests', sent)).status).toBe(409);
  });

  it('refuses the same key with another body: 422 idempotency_key_reused', async () => {
    const headers = { ...demoHeaders, 'Idempotency-Key': randomUUID() };
    expect((await call('POST', '/partner_api/payment_requests', redirectRequest(), headers)).status).toBe(
      200,
    );
    const reused = await call('POST', '/partner_api/payment_requests', redirectRequest(), headers);
    expect(reused.status).toBe(422);
    expect(reused.body.id).toBe('idempotency_key_reused');
  });
});

describe('GET /partner_api/payment_requests/{id}', () => {
  it("answers 404 for another business's request and for an unknown id, 422 for a malformed id", async () => {
    const created = await call('POST', '/partner_api/payment_requests', redirectRequest());
    const { businessId } = await admin(dataDir, 'create-business', '--name', 'Curious');
    const { keyId, key } = await admin(dataDir, 'create-key', '--business', businessId as string);
    const other = { 'X-API-KEY-ID': keyId as string, 'X-API-KEY': key as string };
    expect(
      (await call('GET', `/partner_api/payment_requests/${created.body.id}`, undefined, other)).status,
    ).toBe(404);
    expect((await call('GET', `/partner_api/payment_requests/${randomUUID()}`)).body.id).toBe(
      'payment_request_not_found',
    );
    expect((await call('GET', '/partner_api/payment_requests/abc')).status).toBe(422);
  });
});

describe('redirect payments through the sandbox', () => {
  it('approved: success with the transaction, and the store is credited amount less fee', async () => {
    const before = await balance();
    const created = await call('POST', '/partner_api/payment_requests', redirectRequest());
    const approved = await call('POST', `/sandbox/payment_requests/${created.body.id}/approve`, {
      payerPhone: '+2250700000001',
    });
    expect(approved.status).toBe(200);
    expect(approved.body.status).toBe('success');
    const got = await call('GET', `/partner_api/payment_requests/${created.body.id}`);
    expect(got.body.transaction).toMatchObject({
      amount: { amount: 150_000, currency: 'XOF' },
      fees: { amount: 1_500, currency: 'XOF' },
      status: 'success',
      counterpartIdentifier: '+2250700000001',
    });
    expect(got.body.transaction.executedAt).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(await balance()).toBe(before + 148_500);
  });

  it('carry the description to the page and into the transaction, list included', async () => {
    const description = 'Abonnement fibre, novembre';
    const created = await call('POST', '/partner_api/payment_requests', redirectRequest({ description }));
    expect(created.body.description).toBe(description);
    const page = await fetch(created.body.redirectUrl);
    expect(await page.text()).toContain(`<p class="purpose">${description}</p>`);
    await call('POST', `/sandbox/payment_requests/${created.body.id}/approve`, {
      payerPhone: '+2250700000001',
    });
    const got = await call('GET', `/partner_api/payment_requests/${created.body.id}`);
    expect(got.body.transaction.description).toBe(description);
    const listed = await call('GET', `/partner_api/transactions?storeId=${demo.storeId}`);
    expect(listed.status).toBe(200);
    const item = (listed.body.data ?? listed.body).find(
      (transaction: { id: string }) => transaction.id === got.body.transaction.id,
    );
    expect(item?.description).toBe(description);
  });

  it('approved with the refused-account number: declined on the provider page, never left pending', async () => {
    const created = await call('POST', '/partner_api/payment_requests', redirectRequest());
    const approved = await call('POST', `/sandbox/payment_requests/${created.body.id}/approve`, {
      payerPhone: '+2250700000005',
    });
    expect(approved.body).toMatchObject({ status: 'error', errorReason: 'declined' });
  });

  it('declined: error, nothing credited', async () => {
    const before = await balance();
    const created = await call('POST', '/partner_api/payment_requests', redirectRequest());
    const declined = await call('POST', `/sandbox/payment_requests/${created.body.id}/decline`);
    expect(declined.body).toMatchObject({ status: 'error', errorReason: 'declined' });
    expect(await balance()).toBe(before);
    expect((await call('POST', `/sandbox/payment_requests/${created.body.id}/approve`)).status).toBe(409);
  });
});

describe('payers of the whole zone', () => {
  const directWith = (paymentMethod: string, payerPhone: string) =>
    redirectRequest({}, { paymentMethod, forceProviderDirect: true, payerPhone });

  it.each([
    ['wave', '+221 77 000 00 02', 'error', 'declined'],
    ['orange', '+22370000003', 'error', 'insufficient_funds'],
    ['mtn', '00229 01 90 00 00 01', 'success', null],
    ['moov', '+22890000001', 'success', null],
    ['moov', '+22790000001', 'success', null],
    ['wave', '+22670000001', 'success', null],
  ])(
    '%s takes %s, its country’s sandbox number, which ends %s',
    async (method, phone, status, errorReason) => {
      const created = await call('POST', '/partner_api/payment_requests', directWith(method, phone));
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      const final = await waitForStatus(created.body.id, (s) => s !== 'pending');
      expect(final).toMatchObject({ status, errorReason });
      if (status === 'success')
        expect(final.transaction.counterpartIdentifier).toBe(`+${phone.replace(/^00|\D/g, '')}`);
    },
  );

  it('refuses a Togolese number offered Wave: 422 naming the payer phone, and nothing is made', async () => {
    const sent = directWith('wave', '+22890000001');
    const { status, body } = await call('POST', '/partner_api/payment_requests', sent);
    expect(status).toBe(422);
    expect(body.id).toBe('validation_error');
    expect(body.extras.errors).toEqual([
      expect.objectContaining({ field: 'paymentDetails.data.payerPhone', rule: 'provider_country' }),
    ]);
    expect(body.extras.errors[0].message).toMatch(/Togo.*wave|wave.*Togo/);
    // The reference is still free: the refusal wrote nothing.
    const served = await call('POST', '/partner_api/payment_requests', {
      ...directWith('moov', '+22890000001'),
      reference: sent.reference,
    });
    expect(served.status).toBe(200);
  });

  it.each([
    ['a number of another continent', 'wave', '+33612345678', 'format'],
    ['an Ivorian fixed line', 'orange', '+2252720000000', 'format'],
    ['a Senegalese number one digit short', 'wave', '+22177000000', 'format'],
    ['a Guinea-Bissau number, which no provider serves yet', 'orange', '+245955000001', 'provider_country'],
    ['a Beninese number offered Orange Money', 'orange', '+2290190000001', 'provider_country'],
  ])('refuses %s: 422 rule %s', async (_case, method, phone, rule) => {
    const { status, body } = await call('POST', '/partner_api/payment_requests', directWith(method, phone));
    expect(status).toBe(422);
    expect(body.extras.errors).toContainEqual(
      expect.objectContaining({ field: 'paymentDetails.data.payerPhone', rule }),
    );
  });

  it('answers each store’s country, Côte d’Ivoire unless it was made elsewhere', async () => {
    const storeId = await newStore(dataDir, demo.businessId, 'Boutique Dakar Plateau', 'SN');
    const { body } = await call('GET', '/partner_api/stores');
    const countries = Object.fromEntries(
      body.map((store: { id: string; country: string }) => [store.id, store.country]),
    );
    expect(countries[storeId as string]).toBe('SN');
    expect(countries[demo.storeId]).toBe('CI');
  });
});

describe('direct payments: the sandbox phone numbers choose the outcome', () => {
  it.each([
    ['+2250700000001', 'success', null],
    ['+2250700000002', 'error', 'declined'],
    ['+2250700000003', 'error', 'insufficient_funds'],
    ['+2250709999999', 'success', null],
  ])('%s ends %s', async (phone, status, errorReason) => {
    const created = await call('POST', '/partner_api/payment_requests', directRequest(phone));
    expect(created.status).toBe(200);
    expect(created.body.status).toBe('pending');
    const final = await waitForStatus(created.body.id, (s) => s !== 'pending');
    expect(final).toMatchObject({ status, errorReason });
  });

  it('+2250700000004 gets no callback and stays pending', async () => {
    const created = await call('POST', '/partner_api/payment_requests', directRequest('+2250700000004'));
    const later = await waitForStatus(created.body.id, () => false, 4_000);
    expect(later.status).toBe('pending');
  });

  it('+2250700000005 is refused at once: 400 third_party_payment_provider_error, and the reference stays free', async () => {
    const sent = directRequest('+2250700000005');
    const refused = await call('POST', '/partner_api/payment_requests', sent);
    expect(refused.status).toBe(400);
    expect(refused.body.id).toBe('third_party_payment_provider_error');
    const sameReference = { ...directRequest('+2250700000001'), reference: sent.reference };
    const retried = await call('POST', '/partner_api/payment_requests', sameReference);
    expect(retried.status).toBe(200);
    expect((await waitForStatus(retried.body.id, (s) => s !== 'pending')).status).toBe('success');
  });

  it('+2250700000006 delivers the callback twice and the store is credited once', async () => {
    const before = await balance();
    const created = await call('POST', '/partner_api/payment_requests', {
      ...directRequest('+2250700000006'),
      amountCents: 10_000,
    });
    await waitForStatus(created.body.id, (s) => s !== 'pending');
    // Give the second delivery time to arrive, then check it changed nothing (time let pass on
    // purpose: nothing outside shows the duplicate handled).
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    // 100 F less its 1.5% fee, 1.50 F rounded half up to a whole franc (2 F).
    expect(await balance()).toBe(before + 9_800);
    const audit = await admin<{ ok: boolean }>(dataDir, 'audit');
    expect(audit.ok).toBe(true);
  });
});

describe('soundbox payments', () => {
  let otherStoreDevice: string;
  beforeAll(async () => {
    const storeId = await newStore(dataDir, demo.businessId, 'Annexe');
    otherStoreDevice = `Annexe-${randomUUID().slice(0, 8)}`;
    await admin(dataDir, 'create-device', '--store', storeId as string, '--device-id', otherStoreDevice);
  });

  it('are created for a device of the store, with a redirectUrl too, and need no return URLs', async () => {
    const { status, body } = await call(
      'POST',
      '/partner_api/payment_requests',
      soundboxRequest(demo.deviceId),
    );
    expect(status).toBe(200);
    expect(body).toMatchObject({
      type: 'soundbox',
      paymentMethod: 'mtn',
      status: 'pending',
      redirectUrl: `${baseUrl}/payment/${body.id}`,
    });
  });

  it('take return URLs when given, and answer 422 for a bad one', async () => {
    const urls = { successUrl: 'https://a.example/ok', errorUrl: 'https://a.example/ko' };
    const created = await call('POST', '/partner_api/payment_requests', soundboxRequest(demo.deviceId, urls));
    expect(created.status).toBe(200);

    const bad = { ...urls, errorUrl: 'javascript:alert(1)' };
    const { status, body } = await call(
      'POST',
      '/partner_api/payment_requests',
      soundboxRequest(demo.deviceId, bad),
    );
    expect(status).toBe(422);
    expect(body.extras.errors).toEqual([
      expect.objectContaining({ field: 'paymentDetails.data.errorUrl', rule: 'url' }),
    ]);
  });

  it('answer 404 for a device of another store', async () => {
    const { status, body } = await call(
      'POST',
      '/partner_api/payment_requests',
      soundboxRequest(otherStoreDevice),
    );
    expect(status).toBe(404);
    expect(body.id).toBe('device_not_found');
  });

  it('answer 422 without a deviceId', async () => {
    const { status, body } = await call('POST', '/partner_api/payment_requests', soundboxRequest(undefined));
    expect(status).toBe(422);
    expect(body.extras.errors).toEqual([
      expect.objectContaining({ field: 'paymentDetails.data.deviceId', rule: 'required' }),
    ]);
  });
});

describe('provider callbacks', () => {
  const sign = (body: string) =>
    createHmac('sha256', config.sandbox.providerSecret).update(body).digest('hex');

  it('with a bad or missing signature change nothing', async () => {
    const created = await call('POST', '/partner_api/payment_requests', redirectRequest());
    const forged = JSON.stringify({
      callbackId: randomUUID(),
      provider: 'wave',
      providerReference: 'x',
      paymentRequestId: created.body.id,
      outcome: 'success',
    });
    for (const signature of [undefined, 'f'.repeat(64), sign(`${forged} `)]) {
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        ...(signature ? { 'x-sandbox-signature': signature } : {}),
      };
      const { status } = await call('POST', '/provider_callbacks/wave', forged, headers);
      expect(status).toBe(401);
    }
    expect((await call('GET', `/partner_api/payment_requests/${created.body.id}`)).body.status).toBe(
      'pending',
    );
  });

  it('arriving late, after a terminal state, credit nothing: the payer is refunded', async () => {
    const before = await balance();
    const created = await call('POST', '/partner_api/payment_requests', redirectRequest());
    const declined = await call('POST', `/sandbox/payment_requests/${created.body.id}/decline`);
    expect(declined.body.status).toBe('error');
    const late = JSON.stringify({
      callbackId: randomUUID(),
      provider: 'wave',
      providerReference: await readProviderReference(config, created.body.id),
      paymentRequestId: created.body.id,
      outcome: 'success',
    });
    const { status, body } = await call('POST', '/provider_callbacks/wave', late, {
      'content-type': 'application/json',
      'x-sandbox-signature': sign(late),
    });
    expect(status).toBe(200);
    // The declined payer left: the request ended, and money its collection brings after all is theirs.
    expect(body.result).toBe('orphan_collection');
    expect((await call('GET', `/partner_api/payment_requests/${created.body.id}`)).body.status).toBe('error');
    expect(await balance()).toBe(before);
  });
});
