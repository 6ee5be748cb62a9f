import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { demoApi } from '#test/support/api-client.ts';
import { chooseProvider, phoneRack, screenshotDir } from '#test/support/browser.ts';

const { config } = inject('localHost');
const { baseUrl, demo } = config;
const api = demoApi(config);

interface Link {
  id: string;
  link: string;
}

/** A link of 15 000 F CFA, as a merchant makes one to share in a chat. */
async function createLink(allowMultiplePayments = false): Promise<Link> {
  const { status, body } = await api('POST', '/partner_api/payment_links', {
    storeId: demo.storeId,
    title: 'Deux pagnes wax, livraison à Cocody',
    amountCents: 1500000,
    currency: 'XOF',
    allowMultiplePayments,
  });
  expect(status, JSON.stringify(body)).toBe(200);
  expect(body.link).toBe(`${baseUrl}/pl/${body.id}`);
  return { id: body.id, link: body.link };
}

const canReceivePayments = async (link: Link) =>
  (await api('GET', `/partner_api/payment_links/${link.id}`)).body.canReceivePayments;

/** Spaces of any kind as plain spaces: Intl separates thousands with a narrow no-break space. */
const plain = (text: string) => text.replace(/\s+/g, ' ').trim();

let storeName: string;
const phones = phoneRack();
const phone = phones.open;

beforeAll(async () => {
  const { body } = await api('GET', '/partner_api/stores');
  storeName = body.find((store: { id: string }) => store.id === demo.storeId).name;
  mkdirSync(screenshotDir, { recursive: true });
});

afterEach(phones.closeAll);

/** On the link page: a provider, the phone, the pay button; ends on the sandbox provider's page. */
async function startPaying(page: Page, provider = 'Orange Money', payerPhone = '+2250700000001') {
  await chooseProvider(page, provider);
  await page.getByLabel('Numéro de téléphone mobile money').fill(payerPhone);
  await page.getByRole('button', { name: 'Payer 15 000 F CFA' }).click();
  await page.waitForURL(/\/sandbox\/provider\/checkout\/sbx_/);
}

/** Answers on the provider's page and follows the provider's return to the link page. */
async function answer(page: Page, link: Link, button: 'Approuver' | 'Refuser') {
  await page.getByRole('button', { name: button }).click();
  await page.waitForURL((url) => url.pathname === `/pl/${link.id}` && url.searchParams.has('payment'));
}

describe('the payment-link page, in a phone browser', () => {
  it('takes one payment on a single-use link, confirms it, and then refuses more', async () => {
    const link = await createLink();
    const page = await phone();
    await page.goto(link.link);

    expect(await page.locator('html').getAttribute('lang')).toBe('fr');
    expect(await page.locator('h1').innerText()).toBe(storeName);
    expect(await page.locator('.purpose').innerText()).toBe('Deux pagnes wax, livraison à Cocody');
    expect(plain(await page.locator('.amount').innerText())).toBe('15 000 F CFA');
    // The five operators, the first offered chosen so Pay is in reach at once, the others one tap away.
    expect(await page.locator('input[name=paymentMethod]').count()).toBe(5);
    expect(await page.getByRole('radio', { name: 'Orange Money' }).isChecked()).toBe(true);
    await page.screenshot({ path: join(screenshotDir, 'link-page-390.png'), fullPage: true });

    await startPaying(page);
    const [cookie] = await page.context().cookies();
    expect(cookie).toMatchObject({
      name: 'pl_attempt',
      path: `/pl/${link.id}`,
      httpOnly: true,
      sameSite: 'Lax',
      secure: false,
    });
    expect(plain(await page.locator('.facts').innerText())).toContain('15 000 F CFA');
    await answer(page, link, 'Approuver');

    expect(await page.locator('h1').innerText()).toBe('Paiement réussi');
    expect(plain(await page.locator('.status').innerText())).toContain(
      `Votre paiement de 15 000 F CFA à ${storeName} est confirmé.`,
    );
    expect(await page.locator('.receipt-reference').innerText()).toMatch(/^[0-9A-F]{4}-[0-9A-F]{4}$/);
    expect(await page.locator('.receipt').innerText()).toContain('Orange Money');
    expect(await page.locator('form').count()).toBe(0);
    await page.screenshot({ path: join(screenshotDir, 'link-paid-390.png'), fullPage: true });

    await page.goto(link.link);
    expect(await page.locator('h1').innerText()).toBe('Ce lien de paiement a déjà été payé');
    expect(await page.locator('form').count()).toBe(0);
    expect(await page.getByRole('radio').count()).toBe(0);
    await page.screenshot({ path: join(screenshotDir, 'link-closed-390.png'), fullPage: true });
    expect(await canReceivePayments(link)).toBe(false);
  });

  it('brings a declined customer back to the link with the failure and the form, the link still open', async () => {
    const link = await createLink();
    const page = await phone();
    await page.goto(link.link);
    await startPaying(page, 'Wave');
    await answer(page, link, 'Refuser');

    expect(await page.getByRole('alert').innerText()).toMatch(
      /^Échec du paiement\. Vous avez refusé le paiement sur votre téléphone\. Aucun montant n'a été débité\./,
    );
    expect(await page.getByRole('radio', { name: 'Wave' }).isChecked()).toBe(true);
    expect(await page.getByLabel('Numéro de téléphone mobile money').inputValue()).toBe('07 00 00 00 01');
    await page.screenshot({ path: join(screenshotDir, 'link-declined-390.png'), fullPage: true });
    expect(await canReceivePayments(link)).toBe(true);

    // The same phone pays at once on its second try.
    await page.getByRole('button', { name: 'Payer 15 000 F CFA' }).click();
    await page.waitForURL(/\/sandbox\/provider\/checkout\/sbx_/);
    await answer(page, link, 'Approuver');
    expect(await page.locator('h1').innerText()).toBe('Paiement réussi');
    expect(await canReceivePayments(link)).toBe(false);
  });

  it('holds a single-use link for the customer paying it: another one is told to try later (409)', async () => {
    const link = await createLink();
    const first = await phone();
    await first.goto(link.link);
    await startPaying(first);

    const second = await phone();
    await second.goto(link.link);
    await chooseProvider(second, 'MTN MoMo');
    await second.getByLabel('Numéro de téléphone mobile money').fill('+2250700000003');
    const [response] = await Promise.all([
      second.waitForResponse((reply) => reply.request().method() === 'POST'),
      second.getByRole('button', { name: 'Payer 15 000 F CFA' }).click(),
    ]);
    expect(response.status()).toBe(409);
    await second.waitForLoadState();
    expect(await second.locator('h1').innerText()).toBe('Ce lien est indisponible pour le moment');
    expect(await second.getByText('Réessayez dans quelques minutes.').isVisible()).toBe(true);
    expect(await second.locator('form').count()).toBe(0);
    await second.screenshot({ path: join(screenshotDir, 'link-busy-390.png'), fullPage: true });

    // The first customer steps back from the provider and starts over: their own hold lets them.
    await first.goto(link.link);
    await startPaying(first, 'Djamo');
    await answer(first, link, 'Approuver');
    expect(await first.locator('h1').innerText()).toBe('Paiement réussi');
  });

  it('takes payment after payment on a reusable link', async () => {
    const link = await createLink(true);
    const page = await phone();
    for (const provider of ['Moov Money', 'Orange Money']) {
      await page.goto(link.link);
      await startPaying(page, provider);
      await answer(page, link, 'Approuver');
      expect(await page.locator('h1').innerText()).toBe('Paiement réussi');
    }
    await page.goto(link.link);
    expect(await page.getByRole('button', { name: 'Payer 15 000 F CFA' }).isVisible()).toBe(true);
    expect(await canReceivePayments(link)).toBe(true);
  });

  it('speaks English to a phone set to English', async () => {
    const link = await createLink();
    const page = await phone({ locale: 'en-US' });
    await page.goto(link.link);
    expect(await page.locator('html').getAttribute('lang')).toBe('en');
    expect(await page.getByText('Pay to').isVisible()).toBe(true);
    expect(await page.getByText('Payment method').isVisible()).toBe(true);
    expect(await page.getByLabel('Mobile-money phone number').isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Pay 15 000 F CFA' }).isVisible()).toBe(true);

    await page.getByLabel('Mobile-money phone number').fill('12345');
    await page.getByRole('button', { name: 'Pay 15 000 F CFA' }).click();
    // An operator is always chosen: only the phone is wrong.
    expect(await page.locator('#method-error').count()).toBe(0);
    expect(
      await page.locator('#phone-error').getByText('Enter a mobile number in Côte d’Ivoire').isVisible(),
    ).toBe(true);
    expect(await canReceivePayments(link)).toBe(true);
  });

  it('tells a customer, in French and in English, that a switched-off link is no longer active', async () => {
    const link = await createLink(true);
    const off = await api('POST', `/partner_api/payment_links/${link.id}/deactivate`);
    expect(off.body).toMatchObject({ active: false, canReceivePayments: false });

    const page = await phone({ viewport: { width: 360, height: 640 } });
    await page.goto(link.link);
    expect(await page.locator('h1').innerText()).toBe("Ce lien de paiement n'est plus actif");
    expect(plain(await page.locator('.status').innerText())).toContain("Le marchand l'a désactivé");
    expect(await page.locator('form').count()).toBe(0);
    expect(await page.getByRole('radio').count()).toBe(0);
    expect(await page.getByRole('button').count()).toBe(0);
    await page.screenshot({ path: join(screenshotDir, 'link-inactive-360.png'), fullPage: true });

    const english = await phone({ locale: 'en-US' });
    await english.goto(link.link);
    expect(await english.locator('h1').innerText()).toBe('This payment link is no longer active');
    expect(await english.locator('form').count()).toBe(0);

    // Switched on again, the same page takes payments.
    await api('POST', `/partner_api/payment_links/${link.id}/activate`);
    await page.goto(link.link);
    expect(await page.getByRole('button', { name: 'Payer 15 000 F CFA' }).isVisible()).toBe(true);
  });

  it('fits a 360-pixel-wide screen without sideways scrolling', async () => {
    const link = await createLink();
    const page = await phone({ viewport: { width: 360, height: 740 } });
    await page.goto(link.link);
    // A string, run in the page: the project's types describe Node, not the DOM.
    const { scrollWidth, innerWidth } = await page.evaluate<{ scrollWidth: number; innerWidth: number }>(
      '({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth })',
    );
    expect(innerWidth).toBe(360);
    expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
  });
});
