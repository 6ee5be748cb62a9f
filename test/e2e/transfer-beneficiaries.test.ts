import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { type Body, type Merchant, newMerchant, newStore } from '#test/support/api-client.ts';
import { fundedMerchant, phones, transferHelpers } from '#test/support/transfers.ts';

/**
 * Whom a transfer pays: a saved contact, an inline beneficiary (made a hidden contact), a bank
 * account, another store of the business; `orange_money` as integrations spell it; and the
 * request's validation. Payouts through a provider are in test/e2e/transfers.test.ts.
 */
const { config, dataDir } = inject('localHost');

let merchant: Merchant;
let other: Merchant;
let annexe: string;

beforeAll(async () => {
  [merchant, other] = await Promise.all([
    fundedMerchant(dataDir, 'Grossiste'),
    newMerchant(dataDir, 'Voisin'),
  ]);
  annexe = await newStore(dataDir, merchant.businessId, 'Annexe Yopougon');
});

const { call, api, balance, toNumber, settled, listed } = transferHelpers(config.baseUrl, () => merchant);

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
    expect((await settled(body.id)).status).toBe('success');
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
    const done = await settled(body.id);
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
