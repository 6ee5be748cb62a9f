import { describe, expect, it, vi } from 'vitest';
import { backgroundWorkMs, type DashboardBrowser, signUpOwner } from '#test/support/dashboard.ts';
import {
  auditActionsOf,
  expectErrorSummary,
  itemsOf,
  memberOf,
  theLocalHost,
  verifyFirstLevel,
} from '#test/support/dashboard-setup.ts';
import { orangePayer, payThroughLink, postAsPayer } from '#test/support/paid-payments.ts';
import { decodeQrPng, decodeQrSvg } from '#test/support/qr-images.ts';

/**
 * The dashboard's payment links on the local host over real HTTP, as a browser without JavaScript
 * uses them: a link made on the page is the API's link (the payer's page takes it, its QR codes
 * scan to its address), a payment through it shows on its page, switching it off makes the payer's
 * page refuse and on again lets it pay. Forged posts, a viewer's hand-made posts, another
 * business's link ids and a wrong amount change nothing.
 */
const { baseUrl } = theLocalHost();

async function storeIdOf(browser: DashboardBrowser) {
  const form = await browser.get('/dashboard/payment-links/new');
  expect(form.status).toBe(200);
  const storeId = /<option value="([0-9a-f-]{36})"[^>]*>Yopougon<\/option>/.exec(form.text)?.[1] ?? '';
  expect(storeId).not.toBe('');
  return storeId;
}

/** Makes a link through the form; answers the post and the new link's id. */
async function createLink(browser: DashboardBrowser, form: Record<string, string>) {
  const csrf = await browser.csrfOf('/dashboard/payment-links/new');
  const answer = await browser.post('/dashboard/payment-links', { csrf, ...form });
  const linkId = /\/dashboard\/payment-links\/([0-9a-f-]{36})$/.exec(answer.location ?? '')?.[1] ?? '';
  return { answer, linkId };
}

const switchLink = async (browser: DashboardBrowser, linkId: string, active: boolean) => {
  const csrf = await browser.csrfOf('/dashboard/payment-links/new');
  return browser.post(`/dashboard/payment-links/${linkId}/switch`, { csrf, active: String(active) });
};

const rawGet = (browser: DashboardBrowser, path: string) =>
  fetch(`${baseUrl}${path}`, { headers: { cookie: browser.cookieHeader }, redirect: 'manual' });

describe('payment links on the dashboard', () => {
  it('makes a link the payer’s page takes, lists it, serves its QR codes, shows its payment, and switches it off and on', async () => {
    const owner = await signUpOwner(baseUrl);
    await verifyFirstLevel(owner.businessId);
    const storeId = await storeIdOf(owner.browser);
    const { answer, linkId } = await createLink(owner.browser, {
      storeId,
      title: 'Deux pagnes <b>wax</b>, livraison',
      amount: '1 500',
      reusable: 'true',
    });
    expect(answer.status, answer.text.slice(0, 500)).toBe(303);
    expect(linkId).not.toBe('');
    const stored = (await itemsOf(owner.businessId, `PLINK#${linkId}`))[0];
    expect(stored).toMatchObject({
      amountCents: 150_000,
      allowMultiplePayments: true,
      active: true,
      storeId,
    });

    const list = await owner.browser.get('/dashboard/payment-links');
    expect(list.status).toBe(200);
    expect(list.text).toContain(`data-link-id="${linkId}"`);
    expect(list.text).toContain('Deux pagnes &lt;b&gt;wax&lt;/b&gt;, livraison');
    expect(list.text).not.toContain('<b>wax</b>');
    expect(list.text).toMatch(/1\s500\sF\sCFA/);
    expect(list.text).toContain('Réutilisable');
    // The dashboard's one date style, where the store is (issue 35).
    expect(list.text).toMatch(/\d{2}\/\d{2}\/20\d{2} à \d{2}:\d{2}/);

    const page = await owner.browser.get(`/dashboard/payment-links/${linkId}`);
    expect(page.status).toBe(200);
    const url = `${baseUrl}/pl/${linkId}`;
    expect(page.text).toContain(`value="${url}"`);
    expect(page.text).toContain(`https://wa.me/?text=`);
    expect(page.text).toContain(encodeURIComponent(url));
    expect(page.text).toContain('<svg role="img"');
    expect(page.text).toContain('Aucun paiement par ce lien');

    const svg = await rawGet(owner.browser, `/dashboard/payment-links/${linkId}/qr?format=svg`);
    expect(svg.status).toBe(200);
    expect(svg.headers.get('content-type')).toBe('image/svg+xml');
    expect(svg.headers.get('content-disposition')).toMatch(/^attachment; filename="lien-[0-9a-f]{8}\.svg"$/);
    expect(decodeQrSvg(await svg.text())).toBe(url);
    const png = await rawGet(owner.browser, `/dashboard/payment-links/${linkId}/qr?format=png`);
    expect(png.status).toBe(200);
    expect(png.headers.get('content-type')).toBe('image/png');
    expect(png.headers.get('content-disposition')).toMatch(/\.png"$/);
    expect(decodeQrPng(Buffer.from(await png.arrayBuffer()))).toBe(url);

    const card = await owner.browser.get(`/dashboard/payment-links/${linkId}/card`);
    expect(card.status).toBe(200);
    expect(card.text).toContain('@page{size:A6');
    expect(card.text).toContain('Scannez pour payer');
    expect(card.text).toContain('Yopougon');
    expect(card.headers.get('content-security-policy')).toMatch(/style-src 'sha256-/);

    await payThroughLink(baseUrl, linkId);
    // The payment reaches the link's page once its callback is handled.
    const withPayment = await vi.waitFor(
      async () => {
        const { text } = await owner.browser.get(`/dashboard/payment-links/${linkId}`);
        if (!text.includes('data-transaction-id=')) throw new Error('no payment on the link’s page yet');
        return text;
      },
      { timeout: backgroundWorkMs, interval: 300 },
    );
    expect(withPayment).toContain('data-testid="link-payments"');
    expect(withPayment).toContain('Réussi');

    const off = await switchLink(owner.browser, linkId, false);
    expect(off.status).toBe(303);
    expect(off.location).toBe(`${baseUrl}/dashboard/payment-links/${linkId}`);
    const refused = await fetch(url);
    expect(await refused.text()).toContain('plus actif');
    const refusedPost = await postAsPayer(url, orangePayer);
    expect(refusedPost.status).toBe(409);
    expect((await owner.browser.get('/dashboard/payment-links')).text).toContain('Désactivé');

    expect((await switchLink(owner.browser, linkId, true)).status).toBe(303);
    expect(await (await fetch(url)).text()).not.toContain('plus actif');
    expect(await auditActionsOf(owner.businessId)).toEqual(
      expect.arrayContaining([
        'payment_link_created',
        'payment_link_switched_off',
        'payment_link_switched_on',
      ]),
    );
  });

  it('says why a paid single-use link stays off (409), and reads a plain amount', async () => {
    const owner = await signUpOwner(baseUrl);
    await verifyFirstLevel(owner.businessId);
    const storeId = await storeIdOf(owner.browser);
    const { linkId } = await createLink(owner.browser, {
      storeId,
      title: 'Robe wax taille M, retouchée',
      amount: '2500',
      reusable: 'false',
    });
    expect((await itemsOf(owner.businessId, `PLINK#${linkId}`))[0]).toMatchObject({
      amountCents: 250_000,
      allowMultiplePayments: false,
    });
    await payThroughLink(baseUrl, linkId);
    await expect
      .poll(async () => (await itemsOf(owner.businessId, `PLINK#${linkId}`))[0]?.paidBy, {
        timeout: backgroundWorkMs,
      })
      .toBeTruthy();
    const page = await owner.browser.get(`/dashboard/payment-links/${linkId}`);
    expect(page.text).toContain('a été payé');
    expect(page.text).not.toContain(`/payment-links/${linkId}/switch`);
    const on = await switchLink(owner.browser, linkId, true);
    expect(on.status).toBe(409);
    expect(on.text).toContain('ne peut pas être réactivé');
  });

  it('refuses a wrong amount or title with the form again (400), and writes nothing', async () => {
    const owner = await signUpOwner(baseUrl);
    const storeId = await storeIdOf(owner.browser);
    for (const [form, field] of [
      [{ storeId, title: 'Robe wax taille M', amount: '15,5' }, 'amount'],
      [{ storeId, title: 'Robe wax taille M', amount: '50' }, 'amount'],
      [{ storeId, title: 'Robe wax taille M', amount: '' }, 'amount'],
      [{ storeId, title: '   ', amount: '1500' }, 'title'],
      [{ storeId: crypto.randomUUID(), title: 'Robe wax taille M', amount: '1500' }, 'storeId'],
    ] as const) {
      const { answer } = await createLink(owner.browser, form);
      expectErrorSummary(answer, 400, field);
      expect(answer.text).toContain('aria-invalid="true"');
    }
    expect(await itemsOf(owner.businessId, 'PLINK#')).toEqual([]);
  });

  it('refuses a post without the token or from another site, and a viewer’s posts: 403, nothing changed', async () => {
    const owner = await signUpOwner(baseUrl);
    const storeId = await storeIdOf(owner.browser);
    const form = { storeId, title: 'Robe wax taille M', amount: '1500' };
    expect((await owner.browser.post('/dashboard/payment-links', form)).status).toBe(403);
    const csrf = await owner.browser.csrfOf('/dashboard/payment-links/new');
    const foreign = await owner.browser.post(
      '/dashboard/payment-links',
      { csrf, ...form },
      { origin: 'https://evil.example' },
    );
    expect(foreign.status).toBe(403);
    expect(await itemsOf(owner.businessId, 'PLINK#')).toEqual([]);

    const { linkId } = await createLink(owner.browser, form);
    const noToken = await owner.browser.post(`/dashboard/payment-links/${linkId}/switch`, {
      active: 'false',
    });
    expect(noToken.status).toBe(403);

    const viewer = await memberOf(owner, 'viewer');
    const list = await viewer.get('/dashboard/payment-links');
    expect(list.status).toBe(200);
    expect(list.text).toContain(linkId);
    expect(list.text).not.toContain('/dashboard/payment-links/new');
    const page = await viewer.get(`/dashboard/payment-links/${linkId}`);
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('/switch');
    expect((await viewer.get('/dashboard/payment-links/new')).status).toBe(403);
    const viewerCsrf = await viewer.csrfOf();
    expect((await viewer.post('/dashboard/payment-links', { csrf: viewerCsrf, ...form })).status).toBe(403);
    expect(
      (await viewer.post(`/dashboard/payment-links/${linkId}/switch`, { csrf: viewerCsrf, active: 'false' }))
        .status,
    ).toBe(403);
    const links = await itemsOf(owner.businessId, 'PLINK#');
    expect(links).toHaveLength(1);
    expect(links[0]).toMatchObject({ active: true });
  });

  it('answers 404 for another business’s link on every page, and its switch changes nothing', async () => {
    const owner = await signUpOwner(baseUrl);
    const { linkId } = await createLink(owner.browser, {
      storeId: await storeIdOf(owner.browser),
      title: 'Robe wax taille M',
      amount: '1500',
    });
    const other = await signUpOwner(baseUrl);
    for (const path of ['', '/qr?format=svg', '/qr?format=png', '/card']) {
      expect((await other.browser.get(`/dashboard/payment-links/${linkId}${path}`)).status, path).toBe(404);
    }
    expect((await other.browser.get('/dashboard/payment-links/not-a-link')).status).toBe(404);
    const csrf = await other.browser.csrfOf('/dashboard/payment-links/new');
    const switched = await other.browser.post(`/dashboard/payment-links/${linkId}/switch`, {
      csrf,
      active: 'false',
    });
    expect(switched.status).toBe(404);
    expect((await itemsOf(owner.businessId, `PLINK#${linkId}`))[0]).toMatchObject({ active: true });
    expect((await other.browser.get('/dashboard/payment-links')).text).not.toContain(linkId);
  });
});
