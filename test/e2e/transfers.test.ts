import { createHmac, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiClient, type Body, type Merchant, newMerchant } from '#test/support/api-client.ts';
import { admin } from '#test/support/local-host.ts';
import { readPayoutReference } from '#test/support/provider-reference.ts';
import { startWebhookReceiver, type WebhookReceiver } from '#test/support/webhook-receiver.ts';

const { config, dataDir } = inject('localHost');
const call = apiClient(config.baseUrl);

let merchant: Merchant;
let other: Merchant;
let annexe: string;
let receiver: WebhookReceiver;

const phones = {
  success: '+2250700000001',
  declined: '+2250700000002',
  limit: '+2250700000003',
  noCallback: '+2250700000004',
  refused: '+2250700000005',
  twice: '+2250700000006',
};

beforeAll(async () => {
  [merchant, other] = await Promise.all([newMerchant(dataDir, 'Grossiste'), newMerchant(dataDir, 'Voisin')]);
  ({ storeId: annexe } = (await admin(
    dataDir,
    'create-store',
    '--business',
    merchant.businessId,
    '--name',
    'Annexe Yopougon',
  )) as { storeId: string });
  receiver = await startWebhookReceiver();
  await admin(dataDir, 'set-webhook', '--business', merchant.businessId, '--url', receiver.url);
  await admin(dataDir, 'credit', '--store', merchant.storeId, '--amount', '10000000');
});

afterAll(async () => {
  await receiver?.close();
});

const api = (method: string, path: string, body?: unknown, headers = merchant.headers) =>
  call(method, path, headers, body);

const balance = async (storeId = merchant.storeId, headers = merchant.headers) =>
  (await call('GET', `/partner_api/stores/${storeId}/balance`, headers)).body.amount as number;

const toNumber = (number: string, overrides: Record<string, unknown> = {}) => ({
  storeId: merchant.storeId,
  amountCents: 100_000,
  currency: 'XOF',
  name: 'Fournisseur Bamba',
  paymentMethod: 'orange',
  identifier: { number },
  ...overrides,
});

async function waitForStatus(
  id: string,
  until: (status: string) => boolean,
  timeoutMs = 15_000,
): Promise<Body> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { body } = await api('GET', `/partner_api/transfers/${id}`);
    if (until(body.status) || Date.now() > deadline) return body;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The transfer's line in the store's transaction list. */
async function listed(transfer: Body, storeId = merchant.storeId) {
  const { body } = await api('GET', `/partner_api/transactions?storeId=${storeId}&limit=100`);
  return body.data.find((item: Body) => item.transactionDetails?.id === transfer.id);
}

describe('POST /partner_api/transfers through a provider', () => {
  it('reserves amount + fee at once, then posts it on the provider’s success, reported once', async () => {
    const before = await balance();
    const reference = `payout-${randomUUID()}`;
    const { status, body } = await api(
      'POST',
      '/partner_api/transfers',
      toNumber(phones.success, { reference }),
    );
    expect(status).toBe(200);
    expect(body).toMatchObject({
      storeId: merchant.storeId,
      amount: { amount: 100_000, currency: 'XOF' },
      fees: { amount: 1_000, currency: 'XOF' },
      status: 'pending',
      paymentMethod: 'orange',
      // The identifier, as the original service answers it; the name apart.
      beneficiary: phones.success,
      beneficiaryName: 'Fournisseur Bamba',
      reference,
      transaction: { status: 'pending' },
    });
    expect(body.contactId).toMatch(/^[0-9a-f-]{36}$/);
    expect(await balance()).toBe(before - 101_000);

    const done = await waitForStatus(body.id, (s) => s !== 'pending');
    expect(done.status).toBe('success');
    expect(done.transaction).toEqual({ id: body.transaction.id, status: 'success' });
    expect(done).toMatchObject({ beneficiary: phones.success, beneficiaryName: 'Fournisseur Bamba' });
    expect(await balance()).toBe(before - 101_000);
    expect(await listed(body)).toMatchObject({
      id: body.transaction.id,
      type: 'transfer',
      status: 'success',
      paymentMethod: 'orange',
      counterpartLabel: 'Fournisseur Bamba',
      counterpartIdentifier: phones.success,
      reference,
    });

    const deadline = Date.now() + 10_000;
    let event: Body;
    while (!event && Date.now() < deadline) {
      event = receiver.received
        .map((webhook) => JSON.parse(webhook.body.toString()))
        .find((sent) => sent.transactionDetails?.id === body.id);
      if (!event) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(event).toMatchObject({
      id: body.transaction.id,
      status: 'success',
      transactionType: 'transfer',
      transactionDetails: { id: body.id, reference },
      amount: { amount: 100_000, currency: 'XOF' },
      counterpartLabel: 'Fournisseur Bamba',
      counterpartIdentifier: phones.success,
    });
  });

  it('holds the reservation while pending, then gives it back when the provider fails', async () => {
    const before = await balance();
    const created = (await api('POST', '/partner_api/transfers', toNumber(phones.noCallback))).body;
    expect(created.status).toBe('pending');
    expect(await balance()).toBe(before - 101_000);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect((await api('GET', `/partner_api/transfers/${created.id}`)).body.status).toBe('pending');
    expect(await balance()).toBe(before - 101_000);

    const failed = await api('POST', `/sandbox/transfers/${created.id}/fail`);
    expect(failed.status).toBe(200);
    expect(failed.body.status).toBe('error');
    expect(await balance()).toBe(before);
    expect((await listed(created)).status).toBe('error');
    // Settled once: the helper cannot settle it again.
    expect((await api('POST', `/sandbox/transfers/${created.id}/complete`)).status).toBe(409);
    expect(await balance()).toBe(before);
  });

  it('posts a pending payout the sandbox helper completes', async () => {
    const before = await balance();
    const created = (await api('POST', '/partner_api/transfers', toNumber(phones.noCallback))).body;
    const completed = await api('POST', `/sandbox/transfers/${created.id}/complete`);
    expect(completed.body.status).toBe('success');
    expect(await balance()).toBe(before - 101_000);
  });

  it.each([
    ['declined by the beneficiary’s account', phones.declined, 'declined'],
    ['failed for a limit', phones.limit, 'limit_exceeded'],
  ])('ends in error when %s, with the balance as before', async (_case, number, reason) => {
    const before = await balance();
    const created = (await api('POST', '/partner_api/transfers', toNumber(number))).body;
    expect(await balance()).toBe(before - 101_000);
    const done = await waitForStatus(created.id, (s) => s !== 'pending');
    expect(done).toMatchObject({ status: 'error', errorReason: reason });
    expect(await balance()).toBe(before);
  });

  it('is refused at once with 400 and nothing reserved when the provider refuses', async () => {
    const before = await balance();
    const reference = `refused-${randomUUID()}`;
    const { status, body } = await api(
      'POST',
      '/partner_api/transfers',
      toNumber(phones.refused, { reference }),
    );
    expect(status).toBe(400);
    expect(body.id).toBe('third_party_payment_provider_error');
    expect(await balance()).toBe(before);
    // The reference is free again for a retry to another number.
    const retried = await api('POST', '/partner_api/transfers', toNumber(phones.success, { reference }));
    expect(retried.status).toBe(200);
  });

  it('posts once when the callback comes twice, and a late callback changes nothing', async () => {
    const before = await balance();
    const created = (await api('POST', '/partner_api/transfers', toNumber(phones.twice))).body;
    expect((await waitForStatus(created.id, (s) => s !== 'pending')).status).toBe('success');
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await balance()).toBe(before - 101_000);

    const failed = (await api('POST', '/partner_api/transfers', toNumber(phones.noCallback))).body;
    await api('POST', `/sandbox/transfers/${failed.id}/fail`);
    const afterFail = await balance();
    const late = JSON.stringify({
      callbackId: randomUUID(),
      method: 'orange',
      providerReference: await readPayoutReference(config, failed.id),
      transferId: failed.id,
      outcome: 'success',
    });
    const sign = (body: string) =>
      createHmac('sha256', config.sandbox.providerSecret).update(body).digest('hex');
    const answer = await call(
      'POST',
      '/provider_callbacks/orange/payouts',
      {
        'content-type': 'application/json',
        'x-sandbox-signature': sign(late),
      },
      late,
    );
    expect(answer.status).toBe(200);
    expect(answer.body.result).toBe('already_completed');
    expect((await api('GET', `/partner_api/transfers/${failed.id}`)).body.status).toBe('error');
    expect(await balance()).toBe(afterFail);
    const forged = await call(
      'POST',
      '/provider_callbacks/orange/payouts',
      {
        'content-type': 'application/json',
        'x-sandbox-signature': 'f'.repeat(64),
      },
      late,
    );
    expect(forged.status).toBe(401);
  });

  it('refuses a transfer beyond the available balance with 422 insufficient_balance, writing nothing', async () => {
    const poor = await newMerchant(dataDir, 'Petit');
    await admin(dataDir, 'credit', '--store', poor.storeId, '--amount', '50000');
    const reference = `poor-${randomUUID()}`;
    const { status, body } = await call('POST', '/partner_api/transfers', poor.headers, {
      ...toNumber(phones.success, { storeId: poor.storeId, reference }),
      amountCents: 49_600,
    });
    expect(status).toBe(422);
    expect(body.id).toBe('insufficient_balance');
    expect(await balance(poor.storeId, poor.headers)).toBe(50_000);
    expect((await call('GET', '/partner_api/transactions', poor.headers)).body.total).toBe(0);
    expect((await call('GET', '/partner_api/contacts', poor.headers)).body).toEqual([]);
    // The reference was not taken either.
    const fits = await call('POST', '/partner_api/transfers', poor.headers, {
      ...toNumber(phones.success, { storeId: poor.storeId, reference }),
      amountCents: 49_500,
    });
    expect(fits.status).toBe(200);
    // 495 F and its 1% fee, 4.95 F rounded to a whole franc (5 F): the whole balance.
    expect(await balance(poor.storeId, poor.headers)).toBe(50_000 - 49_500 - 500);
  });

  it('lets exactly one of two concurrent transfers through when together they exceed the balance', async () => {
    const tight = await newMerchant(dataDir, 'Juste');
    await admin(dataDir, 'credit', '--store', tight.storeId, '--amount', '150000');
    const body = { ...toNumber(phones.noCallback, { storeId: tight.storeId }) };
    const results = await Promise.all([
      call('POST', '/partner_api/transfers', tight.headers, body),
      call('POST', '/partner_api/transfers', tight.headers, body),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 422]);
    expect(results.find((r) => r.status === 422)?.body.id).toBe('insufficient_balance');
    expect(await balance(tight.storeId, tight.headers)).toBe(150_000 - 101_000);
  });

  it('answers the first transfer again for a replayed Idempotency-Key, and refuses a reuse with another body', async () => {
    const before = await balance();
    const headers = { ...merchant.headers, 'Idempotency-Key': randomUUID() };
    const sent = toNumber(phones.noCallback);
    const first = await call('POST', '/partner_api/transfers', headers, sent);
    const again = await call('POST', '/partner_api/transfers', headers, sent);
    expect(again.body).toEqual(first.body);
    expect(await balance()).toBe(before - 101_000);
    const other = await call('POST', '/partner_api/transfers', headers, { ...sent, amountCents: 600 });
    expect(other.status).toBe(422);
    expect(other.body.id).toBe('idempotency_key_reused');
  });

  it('refuses a reused reference with 409 transfer_exists_with_reference', async () => {
    const reference = `dup-${randomUUID()}`;
    expect(
      (await api('POST', '/partner_api/transfers', toNumber(phones.noCallback, { reference }))).status,
    ).toBe(200);
    const again = await api('POST', '/partner_api/transfers', toNumber(phones.noCallback, { reference }));
    expect(again.status).toBe(409);
    expect(again.body.id).toBe('transfer_exists_with_reference');
  });
});

describe('beneficiary forms', () => {
  it('pays a saved contact by contactId, and refuses a deleted or unknown one with 404', async () => {
    const contact = (
      await api('POST', '/partner_api/contacts', {
        name: 'Transporteur',
        paymentMethod: 'wave',
        identifier: { number: '0700000001' },
      })
    ).body;
    const sent = await api('POST', '/partner_api/transfers', {
      storeId: merchant.storeId,
      amountCents: 500,
      currency: 'XOF',
      contactId: contact.id,
    });
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({
      contactId: contact.id,
      paymentMethod: 'wave',
      beneficiary: '+2250700000001',
      beneficiaryName: 'Transporteur',
    });

    await api('DELETE', `/partner_api/contacts/${contact.id}`);
    for (const contactId of [contact.id, randomUUID()]) {
      const refused = await api('POST', '/partner_api/transfers', {
        storeId: merchant.storeId,
        amountCents: 500,
        currency: 'XOF',
        contactId,
      });
      expect(refused.status).toBe(404);
      expect(refused.body.id).toBe('contact_not_found');
    }
    // Another business's contact is not found either.
    const foreign = await call('POST', '/partner_api/transfers', other.headers, {
      storeId: other.storeId,
      amountCents: 500,
      currency: 'XOF',
      contactId: sent.body.contactId,
    });
    expect(foreign.status).toBe(404);
  });

  it('makes a hidden contact for an inline beneficiary, reuses it, and a contact post promotes it', async () => {
    const number = '+2250700000001';
    const inline = { name: 'Livreur', paymentMethod: 'moov', identifier: { reference: '07 00 00 00 01' } };
    const first = await api('POST', '/partner_api/transfers', {
      storeId: merchant.storeId,
      amountCents: 500,
      currency: 'XOF',
      ...inline,
    });
    expect(first.status).toBe(200);
    const second = await api('POST', '/partner_api/transfers', {
      storeId: merchant.storeId,
      amountCents: 500,
      currency: 'XOF',
      ...inline,
    });
    expect(second.body.contactId).toBe(first.body.contactId);
    const ids = () => api('GET', '/partner_api/contacts').then((r) => r.body.map((c: Body) => c.id));
    expect(await ids()).not.toContain(first.body.contactId);

    const promoted = await api('POST', '/partner_api/contacts', {
      name: 'Livreur Yao',
      paymentMethod: 'moov',
      identifier: { number },
    });
    expect(promoted.body).toMatchObject({ id: first.body.contactId, name: 'Livreur Yao' });
    expect(await ids()).toContain(first.body.contactId);
  });

  it('pays a bank beneficiary', async () => {
    const { status, body } = await api('POST', '/partner_api/transfers', {
      storeId: merchant.storeId,
      amountCents: 250_000,
      currency: 'XOF',
      name: 'Propriétaire',
      paymentMethod: 'bank',
      identifier: {
        bankName: 'SGCI',
        accountNumber: '000123456789',
        bankCode: 'CI008',
        swiftCode: 'SGCICIAB',
        agencyCode: '01010',
        key: '77',
      },
    });
    expect(status).toBe(200);
    expect(body.fees.amount).toBe(2_500);
    // A bank account is named by what the bank pays to: its code, agency, number and key.
    expect(body).toMatchObject({
      beneficiary: 'CI008 01010 000123456789 77',
      beneficiaryName: 'Propriétaire',
    });
    expect((await waitForStatus(body.id, (s) => s !== 'pending')).status).toBe('success');
  });

  it('moves money between two stores at once (svc), listed in both', async () => {
    const [fromBefore, toBefore] = [await balance(), await balance(annexe)];
    const { status, body } = await api('POST', '/partner_api/transfers', {
      storeId: merchant.storeId,
      amountCents: 70_000,
      currency: 'XOF',
      paymentMethod: 'svc',
      destinationStoreId: annexe,
      description: 'Fonds de caisse',
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      status: 'success',
      paymentMethod: 'svc',
      // Between stores, the original service names the receiving store.
      beneficiary: 'Annexe Yopougon',
      beneficiaryName: 'Annexe Yopougon',
      fees: { amount: 0 },
      transaction: { status: 'success' },
    });
    expect(body.contactId).toMatch(/^[0-9a-f-]{36}$/);
    expect(await balance()).toBe(fromBefore - 70_000);
    expect(await balance(annexe)).toBe(toBefore + 70_000);
    expect(await listed(body)).toMatchObject({
      type: 'transfer',
      paymentMethod: 'svc',
      counterpartLabel: 'Annexe Yopougon',
    });
    const stores = (await api('GET', '/partner_api/stores')).body;
    const senderName = stores.find((s: Body) => s.id === merchant.storeId).name;
    expect(await listed(body, annexe)).toMatchObject({
      type: 'payment',
      paymentMethod: 'svc',
      counterpartLabel: senderName,
      amount: { amount: 70_000 },
      status: 'success',
    });
  });

  it('refuses a transfer to another business’s store with 404 store_not_found, moving nothing', async () => {
    const before = await balance();
    const { status, body } = await api('POST', '/partner_api/transfers', {
      storeId: merchant.storeId,
      amountCents: 5_000,
      currency: 'XOF',
      paymentMethod: 'svc',
      destinationStoreId: other.storeId,
    });
    expect(status).toBe(404);
    expect(body.id).toBe('store_not_found');
    expect(await balance()).toBe(before);
    // Nor can another business send from this store, or read its transfers.
    const foreign = await call('POST', '/partner_api/transfers', other.headers, toNumber(phones.success));
    expect(foreign.status).toBe(404);
  });

  it('does not show a transfer to another business', async () => {
    const mine = (await api('POST', '/partner_api/transfers', toNumber(phones.noCallback))).body;
    const { status, body } = await call('GET', `/partner_api/transfers/${mine.id}`, other.headers);
    expect(status).toBe(404);
    expect(body.id).toBe('transfer_not_found');
  });
});

describe('orange_money, which three public integrations send for payouts', () => {
  it('is taken as orange by a transfer: answered, listed and reported as orange', async () => {
    // A number of its own (the sandbox pays it): no contact of this merchant has it yet.
    const number = '+2250711223344';
    const { status, body } = await api(
      'POST',
      '/partner_api/transfers',
      toNumber(number, { paymentMethod: 'orange_money', name: 'Coopérative Bouaké' }),
    );
    expect(status).toBe(200);
    expect(body).toMatchObject({
      paymentMethod: 'orange',
      beneficiary: number,
      beneficiaryName: 'Coopérative Bouaké',
    });
    const done = await waitForStatus(body.id, (s) => s !== 'pending');
    expect(done).toMatchObject({ status: 'success', paymentMethod: 'orange' });
    expect(await listed(body)).toMatchObject({ paymentMethod: 'orange', counterpartIdentifier: number });
    // Kept as orange: the same beneficiary sent as orange is the same contact.
    const again = await api(
      'POST',
      '/partner_api/transfers',
      toNumber(number, { name: 'Coopérative Bouaké' }),
    );
    expect(again.body.contactId).toBe(body.contactId);
  });

  it('is taken as orange by a contact, which is then the orange contact of that number', async () => {
    const number = '+2250755667788';
    const saved = await api('POST', '/partner_api/contacts', {
      name: 'Grossiste Adjamé',
      paymentMethod: 'orange_money',
      identifier: { number },
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ paymentMethod: 'orange', identifier: { number } });
    const same = await api('POST', '/partner_api/contacts', {
      name: 'Grossiste Adjamé',
      paymentMethod: 'orange',
      identifier: { number },
    });
    expect(same.body.id).toBe(saved.body.id);
    const listedContact = (await api('GET', '/partner_api/contacts')).body.find(
      (contact: Body) => contact.id === saved.body.id,
    );
    expect(listedContact.paymentMethod).toBe('orange');
  });

  it('is refused in any other spelling, naming paymentMethod', async () => {
    const { status, body } = await api(
      'POST',
      '/partner_api/transfers',
      toNumber('+2250700000001', { paymentMethod: 'OrangeMoney' }),
    );
    expect(status).toBe(422);
    expect(body.extras.errors).toContainEqual(
      expect.objectContaining({ field: 'paymentMethod', rule: 'in' }),
    );
  });
});

describe('POST /partner_api/transfers validation', () => {
  const base = { storeId: '00000000-0000-4000-8000-000000000000', amountCents: 1_000, currency: 'XOF' };
  it.each([
    ['no beneficiary', { ...base }, ['contactId', 'paymentMethod'], 'required_without_all'],
    [
      'two forms at once',
      { ...base, contactId: randomUUID(), paymentMethod: 'svc', destinationStoreId: randomUUID() },
      ['contactId', 'paymentMethod', 'destinationStoreId'],
      'prohibited',
    ],
    [
      'contact and inline at once',
      {
        ...base,
        contactId: randomUUID(),
        name: 'A',
        paymentMethod: 'mtn',
        identifier: { number: '+2250700000001' },
      },
      ['contactId', 'name', 'paymentMethod', 'identifier'],
      'prohibited',
    ],
    ['amount under 500', { ...base, amountCents: 499, contactId: randomUUID() }, ['amountCents'], 'min'],
    ['svc without a store', { ...base, paymentMethod: 'svc' }, ['destinationStoreId'], 'required'],
    [
      'inline without a name',
      { ...base, paymentMethod: 'mtn', identifier: { number: '+2250700000001' } },
      ['name'],
      'required',
    ],
    [
      'inline with a bad number',
      { ...base, name: 'A', paymentMethod: 'mtn', identifier: { number: '12' } },
      ['identifier.number'],
      'format',
    ],
    [
      'inline with a Nigerien number for Orange Money, which does not serve Niger',
      { ...base, name: 'A', paymentMethod: 'orange', identifier: { number: '+22790000001' } },
      ['identifier.number'],
      'provider_country',
    ],
    [
      'description too long',
      { ...base, contactId: randomUUID(), description: 'x'.repeat(256) },
      ['description'],
      'max',
    ],
    ['reference empty', { ...base, contactId: randomUUID(), reference: '' }, ['reference'], 'min'],
    [
      'unknown method',
      { ...base, name: 'A', paymentMethod: 'paypal', identifier: { number: '+2250700000001' } },
      ['paymentMethod'],
      'in',
    ],
  ])('refuses %s with a 422 naming the fields', async (_case, body, fields, rule) => {
    const { status, body: answer } = await api('POST', '/partner_api/transfers', body);
    expect(status).toBe(422);
    expect(answer.id).toBe('validation_error');
    for (const field of fields) {
      expect(answer.extras.errors).toContainEqual(expect.objectContaining({ field, rule }));
    }
  });

  it('refuses a currency that is not the store’s, naming currency', async () => {
    const { status, body } = await api(
      'POST',
      '/partner_api/transfers',
      toNumber(phones.success, { currency: 'EUR' }),
    );
    expect(status).toBe(422);
    expect(body.extras.errors[0].field).toBe('currency');
  });

  it('refuses a transfer to the sending store itself, naming destinationStoreId', async () => {
    const { status, body } = await api('POST', '/partner_api/transfers', {
      storeId: merchant.storeId,
      amountCents: 1_000,
      currency: 'XOF',
      paymentMethod: 'svc',
      destinationStoreId: merchant.storeId,
    });
    expect(status).toBe(422);
    expect(body.extras.errors[0].field).toBe('destinationStoreId');
  });
});
