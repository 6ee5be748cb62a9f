import { beforeAll, describe, expect, inject, it } from 'vitest';
import { apiClient, type Merchant, newMerchant } from '#test/support/api-client.ts';

const { config, dataDir } = inject('localHost');
const call = apiClient(config.baseUrl);

let merchant: Merchant;
let other: Merchant;

beforeAll(async () => {
  [merchant, other] = await Promise.all([
    newMerchant(dataDir, 'Quincaillerie'),
    newMerchant(dataDir, 'Autre'),
  ]);
});

const contacts = (headers = merchant.headers) => call('GET', '/partner_api/contacts', headers);
const create = (body: unknown, headers = merchant.headers) =>
  call('POST', '/partner_api/contacts', headers, body);

describe('contacts', () => {
  it('creates a mobile-money contact from a local number and stores it in international form', async () => {
    const { status, body } = await create({
      name: 'Fournisseur Koné',
      paymentMethod: 'orange',
      identifier: { number: '07 00 00 10 01' },
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      name: 'Fournisseur Koné',
      paymentMethod: 'orange',
      identifier: { number: '+2250700001001' },
    });
    expect(body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(Date.parse(body.createdAt)).not.toBeNaN();
    expect((await contacts()).body).toContainEqual(body);
  });

  it('creates contacts of every country its provider serves, in international form', async () => {
    for (const [paymentMethod, typed, stored] of [
      ['wave', '+221 77 000 10 01', '+221770001001'],
      ['moov', '00228 90 00 10 01', '+22890001001'],
      ['mtn', '229 01 90 00 10 01', '+2290190001001'],
    ]) {
      const { status, body } = await create({
        name: `Fournisseur ${paymentMethod}`,
        paymentMethod,
        identifier: { number: typed },
      });
      expect(status, JSON.stringify(body)).toBe(200);
      expect(body.identifier).toEqual({ number: stored });
    }
  });

  it('answers the existing contact when the same beneficiary is posted again: no duplicate', async () => {
    const first = await create({
      name: 'Grossiste',
      paymentMethod: 'wave',
      identifier: { number: '+2250700001002' },
    });
    const again = await create({
      name: 'Grossiste bis',
      paymentMethod: 'wave',
      identifier: { number: '0700001002' },
    });
    expect(again.body).toEqual(first.body);
    const listed = (await contacts()).body.filter((c: { id: string }) => c.id === first.body.id);
    expect(listed).toHaveLength(1);
    // Another method to the same number is another beneficiary.
    const mtn = await create({
      name: 'Grossiste',
      paymentMethod: 'mtn',
      identifier: { number: '+2250700001002' },
    });
    expect(mtn.body.id).not.toBe(first.body.id);
  });

  it('creates a bank contact with its six fields', async () => {
    const identifier = {
      bankName: 'Banque Atlantique',
      accountNumber: '012345678901',
      bankCode: 'CI034',
      swiftCode: 'ATCICIAB',
      agencyCode: '01001',
      key: '42',
    };
    const { status, body } = await create({ name: 'Loyer', paymentMethod: 'bank', identifier });
    expect(status).toBe(200);
    expect(body).toMatchObject({ paymentMethod: 'bank', identifier });
  });

  it('lists a bare array, without another business’s contacts', async () => {
    const mine = await create({
      name: 'Mien',
      paymentMethod: 'djamo',
      identifier: { number: '+2250700001004' },
    });
    const { status, body } = await contacts(other.headers);
    expect(status).toBe(200);
    expect(Array.isArray(body)).toBe(true);
    expect(body.map((c: { id: string }) => c.id)).not.toContain(mine.body.id);
  });

  it('soft-deletes: gone from the list, a second delete and another business’s delete are 404', async () => {
    const made = await create({
      name: 'Ancien',
      paymentMethod: 'mtn',
      identifier: { number: '+2250700001005' },
    });
    const foreign = await call('DELETE', `/partner_api/contacts/${made.body.id}`, other.headers);
    expect(foreign.status).toBe(404);
    expect(foreign.body.id).toBe('contact_not_found');

    const deleted = await call('DELETE', `/partner_api/contacts/${made.body.id}`, merchant.headers);
    expect(deleted.status).toBe(200);
    expect((await contacts()).body.map((c: { id: string }) => c.id)).not.toContain(made.body.id);
    const twice = await call('DELETE', `/partner_api/contacts/${made.body.id}`, merchant.headers);
    expect(twice.status).toBe(404);
    expect(twice.body.id).toBe('contact_not_found');

    // The beneficiary can be saved afresh: a new contact, not the deleted one back.
    const again = await create({
      name: 'Nouveau',
      paymentMethod: 'mtn',
      identifier: { number: '+2250700001005' },
    });
    expect(again.body.id).not.toBe(made.body.id);
  });

  it.each([
    [
      'name missing',
      { paymentMethod: 'orange', identifier: { number: '+2250700001006' } },
      'name',
      'required',
    ],
    [
      'name too long',
      { name: 'x'.repeat(256), paymentMethod: 'orange', identifier: { number: '+2250700001006' } },
      'name',
      'max',
    ],
    [
      'unknown method',
      { name: 'A', paymentMethod: 'paypal', identifier: { number: '+2250700001006' } },
      'paymentMethod',
      'in',
    ],
    [
      'svc is not a contact method',
      { name: 'A', paymentMethod: 'svc', identifier: { number: '+2250700001006' } },
      'paymentMethod',
      'in',
    ],
    ['identifier missing', { name: 'A', paymentMethod: 'orange' }, 'identifier', 'required'],
    [
      'a number of no UEMOA country',
      { name: 'A', paymentMethod: 'orange', identifier: { number: '+33612345678' } },
      'identifier.number',
      'format',
    ],
    [
      'a Togolese number for Wave, which does not serve Togo',
      { name: 'A', paymentMethod: 'wave', identifier: { number: '+22890000001' } },
      'identifier.number',
      'provider_country',
    ],
    [
      'a Senegalese number for MTN',
      { name: 'A', paymentMethod: 'mtn', identifier: { reference: '+221 77 000 10 01' } },
      'identifier.number',
      'provider_country',
    ],
    [
      'bank field missing',
      {
        name: 'A',
        paymentMethod: 'bank',
        identifier: { bankName: 'B', accountNumber: '1', bankCode: 'C', swiftCode: 'S', agencyCode: 'A' },
      },
      'identifier.key',
      'required',
    ],
  ])('refuses %s with a 422 naming %s', async (_case, body, field, rule) => {
    const { status, body: answer } = await create(body);
    expect(status).toBe(422);
    expect(answer.id).toBe('validation_error');
    expect(answer.extras.errors).toContainEqual(expect.objectContaining({ field, rule }));
  });

  it('a delete with a malformed id is a 422 naming id', async () => {
    const { status, body } = await call('DELETE', '/partner_api/contacts/nope', merchant.headers);
    expect(status).toBe(422);
    expect(body.extras.errors[0].field).toBe('id');
  });
});
