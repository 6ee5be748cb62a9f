import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { apiClient, type Merchant, newMerchant } from '#test/support/api-client.ts';

const { config, dataDir } = inject('localHost');
const call = apiClient(config.baseUrl);
let merchant: Merchant;

beforeAll(async () => {
  merchant = await newMerchant(dataDir, 'Atelier');
});

const linkBody = (overrides: Record<string, unknown> = {}) => ({
  storeId: merchant.storeId,
  title: 'Robe wax taille M',
  amountCents: 1_500_000,
  ...overrides,
});

async function newLink(overrides: Record<string, unknown> = {}) {
  const { status, body } = await call(
    'POST',
    '/partner_api/payment_links',
    merchant.headers,
    linkBody(overrides),
  );
  expect(status).toBe(200);
  return body;
}

const pay = (linkId: string, payerPhone = '+2250700000001', paymentMethod = 'orange') =>
  call('POST', `/sandbox/payment_links/${linkId}/pay`, merchant.headers, { paymentMethod, payerPhone });

const linkState = async (id: string) =>
  (await call('GET', `/partner_api/payment_links/${id}`, merchant.headers)).body;

describe('POST /partner_api/payment_links', () => {
  it('answers the link, single-use and open, with its public URL', async () => {
    const link = await newLink();
    expect(link).toMatchObject({
      storeId: merchant.storeId,
      title: 'Robe wax taille M',
      amount: { amount: 1_500_000, currency: 'XOF' },
      allowMultiplePayments: false,
      canReceivePayments: true,
      link: `${config.baseUrl}/pl/${link.id}`,
    });
  });

  it.each([
    ['title shorter than 10', { title: 'Robe' }, 'title', 'min'],
    ['title longer than 255', { title: 'x'.repeat(256) }, 'title', 'max'],
    ['amountCents below 10000', { amountCents: 9_999 }, 'amountCents', 'min'],
    ['storeId missing', { storeId: undefined }, 'storeId', 'required'],
  ])('answers 422 when %s', async (_case, overrides, field, rule) => {
    const { status, body } = await call(
      'POST',
      '/partner_api/payment_links',
      merchant.headers,
      linkBody(overrides),
    );
    expect(status).toBe(422);
    expect(body.extras.errors).toContainEqual(expect.objectContaining({ field, rule }));
  });

  it('refuses a currency that is not the store’s, and 404s an unknown store', async () => {
    expect(
      (await call('POST', '/partner_api/payment_links', merchant.headers, linkBody({ currency: 'EUR' })))
        .status,
    ).toBe(422);
    const unknown = await call(
      'POST',
      '/partner_api/payment_links',
      merchant.headers,
      linkBody({ storeId: randomUUID() }),
    );
    expect(unknown.status).toBe(404);
  });

  it('gives the first answer again for a replayed Idempotency-Key', async () => {
    const headers = { ...merchant.headers, 'Idempotency-Key': randomUUID() };
    const first = await call('POST', '/partner_api/payment_links', headers, linkBody());
    expect(await call('POST', '/partner_api/payment_links', headers, linkBody())).toEqual(first);
  });
});

describe('GET /partner_api/payment_links/{id}', () => {
  it("answers 404 for another business's link", async () => {
    const link = await newLink();
    const other = await newMerchant(dataDir, 'Voisin');
    const { status, body } = await call('GET', `/partner_api/payment_links/${link.id}`, other.headers);
    expect(status).toBe(404);
    expect(body.id).toBe('payment_link_not_found');
  });
});

describe('a single-use link', () => {
  it('is paid once, then refuses another payment with E_PAYMENT_LINK_IS_INVALID', async () => {
    const link = await newLink();
    const paid = await pay(link.id);
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({ status: 'success', paymentLinkId: link.id });
    expect((await linkState(link.id)).canReceivePayments).toBe(false);
    const again = await pay(link.id);
    expect(again.status).toBe(409);
    expect(again.body.id).toBe('E_PAYMENT_LINK_IS_INVALID');
  });

  it('lets exactly one of two customers paying at the same moment through', async () => {
    const link = await newLink();
    const results = await Promise.all([pay(link.id), pay(link.id, '+2250700000001', 'wave')]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(results.find((r) => r.status === 200)?.body.status).toBe('success');
    expect(results.find((r) => r.status === 409)?.body.id).toBe('E_PAYMENT_LINK_IS_INVALID');
    expect((await linkState(link.id)).canReceivePayments).toBe(false);
  });

  it('stays open after a declined attempt, and is then paid', async () => {
    const link = await newLink();
    const declined = await pay(link.id, '+2250700000002');
    expect(declined.body).toMatchObject({ status: 'error', errorReason: 'declined' });
    expect((await linkState(link.id)).canReceivePayments).toBe(true);
    expect((await pay(link.id)).body.status).toBe('success');
    expect((await linkState(link.id)).canReceivePayments).toBe(false);
  });
});

describe('a reusable link', () => {
  it('is paid three times and stays open', async () => {
    const link = await newLink({ allowMultiplePayments: true, title: 'Cotisation mensuelle' });
    for (let i = 0; i < 3; i++) expect((await pay(link.id)).body.status).toBe('success');
    expect(await linkState(link.id)).toMatchObject({ allowMultiplePayments: true, canReceivePayments: true });
  });
});
