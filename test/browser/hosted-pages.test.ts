import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { demoApi } from '#test/support/api-client.ts';
import { openPhone, type PhoneBrowser, screenshotDir } from '#test/support/browser.ts';
import { readProviderReference } from '#test/support/provider-reference.ts';

const { config } = inject('localHost');
const { baseUrl, demo } = config;
const api = demoApi(config);

interface Created {
  id: string;
  redirectUrl: string;
  successUrl: string;
  errorUrl: string;
}

/** A redirect payment request of 1 500 F CFA, as an integrator makes one before sending the payer to it. */
async function createPaymentRequest(): Promise<Created> {
  const reference = `browser-${randomUUID()}`;
  const successUrl = `${baseUrl}/__test/success?ref=${reference}`;
  const errorUrl = `${baseUrl}/__test/error`;
  const { status, body } = await api('POST', '/partner_api/payment_requests', {
    storeId: demo.storeId,
    amountCents: 150000,
    currency: 'XOF',
    reference,
    paymentDetails: { type: 'redirect', data: { paymentMethod: 'wave', successUrl, errorUrl } },
  });
  expect(status, JSON.stringify(body)).toBe(200);
  return { id: body.id, redirectUrl: body.redirectUrl, successUrl, errorUrl };
}

/** Spaces of any kind as plain spaces: Intl separates thousands with a narrow no-break space. */
const plain = (text: string) => text.replace(/\s+/g, ' ').trim();

let storeName: string;
let phone: PhoneBrowser | undefined;

beforeAll(async () => {
  const { body } = await api('GET', '/partner_api/stores');
  storeName = body.find((store: { id: string }) => store.id === demo.storeId).name;
  mkdirSync(screenshotDir, { recursive: true });
});

afterEach(async () => {
  await phone?.close();
  phone = undefined;
});

/** From the hosted page to the sandbox provider's page, paying with Orange Money. */
async function payWithOrange(created: Created, payerPhone = '+2250700000001') {
  phone = await openPhone();
  const { page } = phone;
  await page.goto(created.redirectUrl);
  await page.getByRole('radio', { name: 'Orange Money' }).check();
  await page.getByLabel('Numéro de téléphone mobile money').fill(payerPhone);
  await page.getByRole('button', { name: /^Payer/ }).click();
  await page.waitForURL(/\/sandbox\/provider\/checkout\/sbx_/);
  return { page, checkoutUrl: page.url() };
}

describe('the hosted payment page, in a phone browser', () => {
  it('takes an approved payment from the page through the sandbox provider to the success URL', async () => {
    const created = await createPaymentRequest();
    phone = await openPhone();
    const { page } = phone;
    await page.goto(created.redirectUrl);

    expect(await page.locator('html').getAttribute('lang')).toBe('fr');
    expect(await page.locator('h1').innerText()).toBe(storeName);
    expect(plain(await page.locator('.amount').innerText())).toBe('1 500 F CFA');
    expect(await page.getByRole('radio', { name: 'Wave' }).isChecked()).toBe(true);
    expect(await page.getByText('Choisissez votre moyen de paiement').isVisible()).toBe(true);

    await page.getByRole('radio', { name: 'Orange Money' }).check();
    await page.getByLabel('Numéro de téléphone mobile money').fill('+2250700000001');
    await page.getByRole('button', { name: 'Payer 1 500 F CFA' }).click();

    await page.waitForURL(/\/sandbox\/provider\/checkout\/sbx_/);
    expect(await page.locator('.sandbox-banner').innerText()).toMatch(/sandbox/i);
    expect(await page.locator('.provider-header').innerText()).toContain('Orange Money');
    expect(plain(await page.locator('.facts').innerText())).toContain('1 500 F CFA');
    expect(await page.getByLabel('Téléphone du payeur').inputValue()).toBe('+2250700000001');
    await page.screenshot({ path: join(screenshotDir, 'sandbox-checkout-390.png'), fullPage: true });

    await page.getByRole('button', { name: 'Approuver' }).click();
    await page.waitForURL((url) => url.href === created.successUrl);
    expect(page.url()).toBe(created.successUrl);

    const { body } = await api('GET', `/partner_api/payment_requests/${created.id}`);
    expect(body.status).toBe('success');
    expect(body.transaction).toMatchObject({
      status: 'success',
      amount: { amount: 150000, currency: 'XOF' },
    });
  });

  it('ends a declined payment on the error URL, the request in error', async () => {
    const created = await createPaymentRequest();
    const { page } = await payWithOrange(created);
    await page.getByRole('button', { name: 'Refuser' }).click();
    await page.waitForURL((url) => url.href === created.errorUrl);

    const { body } = await api('GET', `/partner_api/payment_requests/${created.id}`);
    expect(body).toMatchObject({ status: 'error', errorReason: 'declined' });
  });

  it('shows the outcome, not the form, when a completed payment page is opened again', async () => {
    const created = await createPaymentRequest();
    const { page, checkoutUrl } = await payWithOrange(created);
    await page.getByRole('button', { name: 'Approuver' }).click();
    await page.waitForURL((url) => url.href === created.successUrl);

    await page.goto(created.redirectUrl);
    expect(await page.locator('form').count()).toBe(0);
    expect(await page.locator('h1').innerText()).toBe('Paiement réussi');
    expect(await page.getByRole('link', { name: 'Retourner chez le marchand' }).getAttribute('href')).toBe(
      created.successUrl,
    );
    await page.screenshot({ path: join(screenshotDir, 'payment-paid-390.png'), fullPage: true });

    // The provider's page of an answered collection sends the payer on too, never asking twice.
    await page.goto(checkoutUrl);
    expect(page.url()).toBe(created.successUrl);
  });

  it('speaks English to a phone set to English', async () => {
    const created = await createPaymentRequest();
    phone = await openPhone({ locale: 'en-US' });
    const { page } = phone;
    await page.goto(created.redirectUrl);
    expect(await page.locator('html').getAttribute('lang')).toBe('en');
    expect(await page.getByText('Choose how to pay').isVisible()).toBe(true);
    expect(await page.getByLabel('Mobile-money phone number').isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Pay 1 500 F CFA' }).isVisible()).toBe(true);

    await page.getByRole('link', { name: 'Français' }).click();
    expect(await page.locator('html').getAttribute('lang')).toBe('fr');
    expect(await page.getByRole('button', { name: 'Payer 1 500 F CFA' }).isVisible()).toBe(true);
  });

  it('fits a 360-pixel-wide screen without sideways scrolling, the pay button in reach', async () => {
    const created = await createPaymentRequest();
    phone = await openPhone({ viewport: { width: 360, height: 740 } });
    const { page } = phone;
    await page.goto(created.redirectUrl);

    // A string, run in the page: the project's types describe Node, not the DOM.
    const { scrollWidth, innerWidth } = await page.evaluate<{ scrollWidth: number; innerWidth: number }>(
      '({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth })',
    );
    expect(innerWidth).toBe(360);
    expect(scrollWidth).toBeLessThanOrEqual(innerWidth);

    const pay = page.getByRole('button', { name: 'Payer 1 500 F CFA' });
    await pay.scrollIntoViewIfNeeded();
    expect(await pay.isVisible()).toBe(true);
    const box = await pay.boundingBox();
    expect(box?.x).toBeGreaterThanOrEqual(0);
    expect((box?.x ?? 0) + (box?.width ?? Number.POSITIVE_INFINITY)).toBeLessThanOrEqual(360);
    expect(box?.height).toBeGreaterThanOrEqual(48);
    await page.screenshot({ path: join(screenshotDir, 'payment-page-360.png'), fullPage: true });
  });

  it('shows a bad phone as an error in the page, answered 400, and starts nothing', async () => {
    const created = await createPaymentRequest();
    phone = await openPhone();
    const { page } = phone;
    await page.goto(created.redirectUrl);
    await page.getByLabel('Numéro de téléphone mobile money').fill('12345');
    const [response] = await Promise.all([
      page.waitForResponse((answer) => answer.request().method() === 'POST'),
      page.getByRole('button', { name: /^Payer/ }).click(),
    ]);
    expect(response.status()).toBe(400);
    await page.waitForLoadState();
    expect(page.url()).toBe(created.redirectUrl);
    expect(await page.getByRole('alert').innerText()).toContain('Entrez un numéro ivoirien');
    expect(await page.getByLabel('Numéro de téléphone mobile money').getAttribute('aria-invalid')).toBe(
      'true',
    );
    await page.screenshot({ path: join(screenshotDir, 'payment-bad-phone-390.png'), fullPage: true });

    expect((await api('GET', `/partner_api/payment_requests/${created.id}`)).body.status).toBe('pending');
    await expect(readProviderReference(config, created.id)).rejects.toThrow(/has no collection/);
  });
});
