import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { apiClient, type Body, type Merchant, newMerchant, platformKey } from '#test/support/api-client.ts';
import { eventually } from '#test/support/eventually.ts';
import { admin } from '#test/support/local-host.ts';

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

describe('the sandbox’s pay', () => {
  it('refuses a Togolese payer offered Wave (422 naming payerPhone) and stays open for Moov Money', async () => {
    const link = await newLink();
    const refused = await pay(link.id, '+22890000001', 'wave');
    expect(refused.status).toBe(422);
    expect(refused.body.extras.errors).toEqual([
      expect.objectContaining({ field: 'payerPhone', rule: 'provider_country' }),
    ]);
    expect((await linkState(link.id)).canReceivePayments).toBe(true);
    const paid = await pay(link.id, '+22890000001', 'moov');
    expect(paid.status).toBe(200);
    expect(paid.body.status).toBe('success');
  });

  it('takes orange_money as orange', async () => {
    const link = await newLink();
    const paid = await pay(link.id, '+2250700000001', 'orange_money');
    expect(paid.body).toMatchObject({ status: 'success', paymentMethod: 'orange', paymentLinkId: link.id });
  });
});

describe('a reusable link', () => {
  it('is paid three times and stays open', async () => {
    const link = await newLink({ allowMultiplePayments: true, title: 'Cotisation mensuelle' });
    for (let i = 0; i < 3; i++) expect((await pay(link.id)).body.status).toBe('success');
    expect(await linkState(link.id)).toMatchObject({ allowMultiplePayments: true, canReceivePayments: true });
  });
});

const switchLink = (id: string, to: 'activate' | 'deactivate', headers = merchant.headers) =>
  call('POST', `/partner_api/payment_links/${id}/${to}`, headers);

/** The link's page as a customer's phone gets it, in the language asked for. */
async function linkPageHtml(id: string, lang: 'fr' | 'en') {
  const response = await fetch(`${config.baseUrl}/pl/${id}?lang=${lang}`);
  return { status: response.status, html: await response.text() };
}

/** The customer posts the page's form, as a phone without JavaScript does. */
async function submitLinkPage(id: string) {
  const response = await fetch(`${config.baseUrl}/pl/${id}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ paymentMethod: 'wave', payerPhone: '+2250700000001' }).toString(),
    redirect: 'manual',
  });
  return { status: response.status, html: await response.text(), location: response.headers.get('location') };
}

describe('a link switched off', () => {
  it('reads active:false and cannot receive payments; switching it off again answers it again', async () => {
    const link = await newLink();
    const off = await switchLink(link.id, 'deactivate');
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ id: link.id, active: false, canReceivePayments: false });
    expect(await linkState(link.id)).toMatchObject({ active: false, canReceivePayments: false });
    const again = await switchLink(link.id, 'deactivate');
    expect(again.status).toBe(200);
    expect(again.body).toEqual(off.body);
  });

  it('says on its page, in French and in English, that it is no longer active, with no pay button', async () => {
    const link = await newLink();
    expect((await linkPageHtml(link.id, 'fr')).html).toContain('<form');
    await switchLink(link.id, 'deactivate');
    const french = await linkPageHtml(link.id, 'fr');
    expect(french.status).toBe(200);
    expect(french.html).toContain('Ce lien de paiement n&#39;est plus actif');
    const english = await linkPageHtml(link.id, 'en');
    expect(english.html).toContain('This payment link is no longer active');
    for (const page of [french.html, english.html]) {
      expect(page).not.toContain('<form');
      expect(page).not.toContain('name="paymentMethod"');
      expect(page).not.toMatch(/>(Payer|Pay) /);
    }
  });

  it('refuses the page’s form and the sandbox’s pay with E_PAYMENT_LINK_IS_INVALID, starting no payment', async () => {
    const link = await newLink({ allowMultiplePayments: true, title: 'Cotisation mensuelle' });
    await switchLink(link.id, 'deactivate');
    const posted = await submitLinkPage(link.id);
    expect(posted.status).toBe(409);
    expect(posted.html).toContain('Ce lien de paiement n&#39;est plus actif');
    expect(posted.html).not.toContain('<form');
    const paid = await pay(link.id);
    expect(paid.status).toBe(409);
    expect(paid.body.id).toBe('E_PAYMENT_LINK_IS_INVALID');
    const { body } = await call(
      'GET',
      `/partner_api/transactions?storeId=${merchant.storeId}`,
      merchant.headers,
    );
    expect(JSON.stringify(body.data)).not.toContain(link.id);
  });

  it('takes payments again once a reusable link is switched back on', async () => {
    const link = await newLink({ allowMultiplePayments: true, title: 'Cotisation mensuelle' });
    expect((await pay(link.id)).body.status).toBe('success');
    await switchLink(link.id, 'deactivate');
    expect((await pay(link.id)).status).toBe(409);
    const on = await switchLink(link.id, 'activate');
    expect(on.status).toBe(200);
    expect(on.body).toMatchObject({ active: true, canReceivePayments: true });
    expect((await switchLink(link.id, 'activate')).body).toEqual(on.body);
    expect((await pay(link.id)).body.status).toBe('success');
    expect((await linkPageHtml(link.id, 'fr')).html).toContain('<form');
  });

  it('takes its one payment once a single-use link switched off before any is switched on', async () => {
    const link = await newLink();
    await switchLink(link.id, 'deactivate');
    expect((await switchLink(link.id, 'activate')).body).toMatchObject({
      active: true,
      canReceivePayments: true,
    });
    expect((await pay(link.id)).body.status).toBe('success');
  });

  it('refuses to switch on a single-use link already paid: 409 payment_link_already_used', async () => {
    const link = await newLink();
    expect((await pay(link.id)).body.status).toBe('success');
    const whilePaid = await switchLink(link.id, 'activate');
    expect(whilePaid.status).toBe(409);
    expect(whilePaid.body.id).toBe('payment_link_already_used');
    expect((await switchLink(link.id, 'deactivate')).body).toMatchObject({ active: false });
    const refused = await switchLink(link.id, 'activate');
    expect(refused.status).toBe(409);
    expect(refused.body.id).toBe('payment_link_already_used');
    expect(await linkState(link.id)).toMatchObject({ active: false, canReceivePayments: false });
  });

  it('lets an attempt started before the switch end as it would have: the payer may be paying already', async () => {
    const link = await newLink();
    const started = await submitLinkPage(link.id);
    expect(started.status).toBe(303);
    const checkout = started.location as string;
    expect(checkout).toContain('/sandbox/provider/checkout/');
    await switchLink(link.id, 'deactivate');
    // The payer, at the provider already, approves there.
    const answered = await fetch(checkout, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ action: 'approve', payerPhone: '+2250700000001' }).toString(),
      redirect: 'manual',
    });
    expect(answered.status).toBe(303);
    // Back through the provider's return page, `/payment/<id>/return`, to the link's page.
    const paymentId = new URL(answered.headers.get('location') as string).pathname.split('/')[2];
    const status = await eventually(
      async () =>
        (await call('GET', `/partner_api/payment_requests/${paymentId}`, merchant.headers)).body.status,
      (current) => current !== 'pending',
      { intervalMs: 200 },
    );
    expect(status).toBe('success');
    expect(await linkState(link.id)).toMatchObject({ active: false, canReceivePayments: false });
    expect((await switchLink(link.id, 'activate')).status).toBe(409);
  });

  it('decides an attempt racing the switch by whichever write lands first, never both ways', async () => {
    for (let round = 0; round < 5; round++) {
      const link = await newLink({ allowMultiplePayments: true, title: 'Cotisation mensuelle' });
      const [paid, off] = await Promise.all([pay(link.id), switchLink(link.id, 'deactivate')]);
      expect(off.status).toBe(200);
      expect([200, 409]).toContain(paid.status);
      if (paid.status === 409) expect(paid.body.id).toBe('E_PAYMENT_LINK_IS_INVALID');
      else expect(paid.body.status).toBe('success');
      // Whatever the order, the link is off afterwards and takes nothing more.
      expect((await pay(link.id)).status).toBe(409);
    }
  });

  it("answers 404 payment_link_not_found for another business's link, changing nothing", async () => {
    const link = await newLink();
    const other = await newMerchant(dataDir, 'Voisin');
    for (const to of ['deactivate', 'activate'] as const) {
      const { status, body } = await switchLink(link.id, to, other.headers);
      expect(status).toBe(404);
      expect(body.id).toBe('payment_link_not_found');
    }
    expect(await linkState(link.id)).toMatchObject({ active: true, canReceivePayments: true });
  });
});

describe('GET /partner_api/payment_links', () => {
  /** A business of its own: two stores, five links made one after another, one switched off. */
  let shop: Merchant;
  let annexe: string;
  let annexeKey: Record<string, string>;
  /** Newest first, as the list answers them. */
  let made: { id: string; storeId: string; active: boolean }[];

  const list = async (query = '', headers = shop.headers) =>
    call('GET', `/partner_api/payment_links${query}`, headers);
  const ids = (body: Body) => body.data.map((link: Body) => link.id);

  beforeAll(async () => {
    shop = await newMerchant(dataDir, 'Librairie');
    ({ storeId: annexe } = await admin(
      dataDir,
      'create-store',
      '--business',
      shop.businessId,
      '--name',
      'Annexe',
    ));
    const key = await platformKey(dataDir, shop.businessId, annexe);
    annexeKey = { 'X-API-KEY-ID': key.keyId as string, 'X-API-KEY': key.key as string };
    made = [];
    for (const storeId of [shop.storeId, annexe, shop.storeId, annexe, shop.storeId]) {
      const { body } = await call('POST', '/partner_api/payment_links', shop.headers, {
        storeId,
        title: 'Manuels scolaires 6e',
        amountCents: 20_000,
      });
      made.unshift({ id: body.id, storeId, active: true });
    }
    const switchedOff = made[1] as (typeof made)[number];
    await switchLink(switchedOff.id, 'deactivate', shop.headers);
    switchedOff.active = false;
  });

  it('lists every link of the business, newest first, in the transactions’ envelope', async () => {
    const { status, body } = await list();
    expect(status).toBe(200);
    expect(body).toMatchObject({ total: 5, perPage: 100, currentPage: 1 });
    expect(ids(body)).toEqual(made.map((link) => link.id));
    expect(body.data[1]).toMatchObject({ active: false, canReceivePayments: false });
    expect(body.data[0]).toMatchObject({ active: true, canReceivePayments: true, link: expect.any(String) });
  });

  it('filters by store and by state, together or apart', async () => {
    const expected = (keep: (link: (typeof made)[number]) => boolean) =>
      made.filter(keep).map((link) => link.id);
    expect(ids((await list(`?storeId=${annexe}`)).body)).toEqual(expected((l) => l.storeId === annexe));
    expect(ids((await list('?active=false')).body)).toEqual(expected((l) => !l.active));
    expect(ids((await list('?active=true')).body)).toEqual(expected((l) => l.active));
    const both = (await list(`?storeId=${shop.storeId}&active=true`)).body;
    expect(both.total).toBe(3);
    expect(ids(both)).toEqual(expected((l) => l.storeId === shop.storeId && l.active));
  });

  it('pages with page and limit, as the transaction list does', async () => {
    const second = (await list('?page=2&limit=2')).body;
    expect(second).toMatchObject({ total: 5, perPage: 2, currentPage: 2 });
    expect(ids(second)).toEqual(made.slice(2, 4).map((link) => link.id));
    expect(ids((await list('?page=3&limit=2')).body)).toEqual([made[4]?.id]);
    expect((await list('?page=4&limit=2')).body).toMatchObject({ total: 5, data: [] });
  });

  it.each([
    ['active=yes', 'active'],
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['page=0', 'page'],
    ['storeId=annexe', 'storeId'],
  ])('answers 422 naming the field for %s', async (query, field) => {
    const { status, body } = await list(`?${query}`);
    expect(status).toBe(422);
    expect(body.extras.errors).toContainEqual(expect.objectContaining({ field }));
  });

  it('shows a key scoped to one store that store’s links only, and 404s another store', async () => {
    const { body } = await list('', annexeKey);
    expect(ids(body)).toEqual(made.filter((link) => link.storeId === annexe).map((link) => link.id));
    const refused = await list(`?storeId=${shop.storeId}`, annexeKey);
    expect(refused.status).toBe(404);
    expect(refused.body.id).toBe('store_not_found');
    // Nor may it switch another store's link.
    const first = made.find((link) => link.storeId === shop.storeId) as (typeof made)[number];
    expect((await switchLink(first.id, 'deactivate', annexeKey)).body.id).toBe('payment_link_not_found');
  });

  it('shows another business nothing of these links, and 404s their store', async () => {
    const { status, body } = await list('', merchant.headers);
    expect(status).toBe(200);
    for (const link of made) expect(JSON.stringify(body)).not.toContain(link.id);
    const foreign = await list(`?storeId=${annexe}`, merchant.headers);
    expect(foreign.status).toBe(404);
    expect(foreign.body.id).toBe('store_not_found');
  });
});
