import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { demoApi } from '#test/support/api-client.ts';
import { chooseProvider, openPhone, type PhoneBrowser, screenshotDir } from '#test/support/browser.ts';
import { backgroundWorkMs } from '#test/support/dashboard.ts';
import { testHostEnv } from '#test/support/local-host-global-setup.ts';
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
async function createPaymentRequest(description?: string, expiresAt?: string): Promise<Created> {
  const reference = `browser-${randomUUID()}`;
  const successUrl = `${baseUrl}/__test/success?ref=${reference}`;
  const errorUrl = `${baseUrl}/__test/error`;
  const { status, body } = await api('POST', '/partner_api/payment_requests', {
    storeId: demo.storeId,
    amountCents: 150000,
    currency: 'XOF',
    reference,
    description,
    expiresAt,
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
  await chooseProvider(page, 'Orange Money');
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
    expect(await page.getByText('Moyen de paiement').isVisible()).toBe(true);

    await chooseProvider(page, 'Orange Money');
    await page.getByLabel('Numéro de téléphone mobile money').fill('+2250700000001');
    await page.getByRole('button', { name: 'Payer 1 500 F CFA' }).click();

    await page.waitForURL(/\/sandbox\/provider\/checkout\/sbx_/);
    expect(await page.locator('.sandbox-banner').innerText()).toMatch(/mode test/i);
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

  it('brings a declined payer back to the form with the reason, and takes the payment on the second try', async () => {
    const created = await createPaymentRequest();
    const { page } = await payWithOrange(created);
    await page.getByRole('button', { name: 'Refuser' }).click();
    await page.waitForURL((url) => url.href === created.redirectUrl);
    expect(plain(await page.getByRole('alert').innerText())).toContain(
      "Vous avez refusé le paiement sur votre téléphone. Aucun montant n'a été débité. Essayez un autre opérateur ou un autre numéro.",
    );
    // The form as the payer left it: the operator and the number, ready for another try.
    expect(await page.getByRole('radio', { name: 'Orange Money' }).isChecked()).toBe(true);
    expect(await page.getByLabel('Numéro de téléphone mobile money').inputValue()).toBe('07 00 00 00 01');
    await page.screenshot({ path: join(screenshotDir, 'payment-declined-retry-390.png'), fullPage: true });
    expect((await api('GET', `/partner_api/payment_requests/${created.id}`)).body.status).toBe('pending');

    await chooseProvider(page, 'Wave');
    await page.getByRole('button', { name: /^Payer/ }).click();
    await page.waitForURL(/\/sandbox\/provider\/checkout\/sbx_/);
    await page.getByRole('button', { name: 'Approuver' }).click();
    await page.waitForURL((url) => url.href === created.successUrl);
    const { body } = await api('GET', `/partner_api/payment_requests/${created.id}`);
    expect(body).toMatchObject({ status: 'success', transaction: { status: 'success' } });
  });

  it('lets the payer leave for the shop from the form: the error URL, the request abandoned', async () => {
    const created = await createPaymentRequest();
    phone = await openPhone();
    const { page } = phone;
    await page.goto(created.redirectUrl);
    await page.getByRole('button', { name: 'Retour à la boutique' }).click();
    await page.waitForURL((url) => url.href === created.errorUrl);
    const { body } = await api('GET', `/partner_api/payment_requests/${created.id}`);
    expect(body).toMatchObject({ status: 'error', errorReason: 'abandoned' });
  });

  it('says an expired request has ended, with no pay button', async () => {
    // Its lifetime is what is under test: the shortest the host allows, with room for a request
    // slowed by a busy machine to arrive in time; then the API, which reads it, says it ended.
    const lifetimeMs = Number(testHostEnv.PAYMENT_REQUEST_MIN_LIFETIME_SECONDS) * 1000 + 3_000;
    const created = await createPaymentRequest(undefined, new Date(Date.now() + lifetimeMs).toISOString());
    await expect
      .poll(async () => (await api('GET', `/partner_api/payment_requests/${created.id}`)).body.errorReason, {
        timeout: lifetimeMs + backgroundWorkMs,
        interval: 250,
      })
      .toBe('expired');
    phone = await openPhone();
    const { page } = phone;
    await page.goto(created.redirectUrl);
    expect(await page.locator('h1').innerText()).toBe('Demande de paiement expirée');
    expect(plain(await page.locator('.status').innerText())).toContain(
      'Le délai pour payer cette demande est dépassé.',
    );
    expect(await page.getByRole('button').count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Retour à la boutique' }).getAttribute('href')).toBe(
      created.errorUrl,
    );
    await page.screenshot({ path: join(screenshotDir, 'payment-expired-390.png'), fullPage: true });
  });

  it('shows the outcome, not the form, when a completed payment page is opened again', async () => {
    const created = await createPaymentRequest();
    const { page, checkoutUrl } = await payWithOrange(created);
    await page.getByRole('button', { name: 'Approuver' }).click();
    await page.waitForURL((url) => url.href === created.successUrl);

    await page.goto(created.redirectUrl);
    expect(await page.locator('form').count()).toBe(0);
    expect(await page.locator('h1').innerText()).toBe('Paiement réussi');
    expect(await page.getByRole('link', { name: 'Retour à la boutique' }).getAttribute('href')).toBe(
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
    expect(await page.getByText('Payment method').isVisible()).toBe(true);
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
    expect(await page.getByRole('alert').innerText()).toContain(
      'Saisissez un numéro mobile en Côte d’Ivoire',
    );
    expect(await page.getByLabel('Numéro de téléphone mobile money').getAttribute('aria-invalid')).toBe(
      'true',
    );
    await page.screenshot({ path: join(screenshotDir, 'payment-bad-phone-390.png'), fullPage: true });

    expect((await api('GET', `/partner_api/payment_requests/${created.id}`)).body.status).toBe('pending');
    await expect(readProviderReference(config, created.id)).rejects.toThrow(/has no collection/);
  });
});

/** Where `locator` sits in the first screen, before any scrolling: its box within the viewport. */
async function inFirstScreen(page: Page, locator: Locator, height: number) {
  expect(await page.evaluate<number>('window.scrollY')).toBe(0);
  const box = await locator.boundingBox();
  expect(box, 'rendered').not.toBeNull();
  expect(box?.y).toBeGreaterThanOrEqual(0);
  expect((box?.y ?? 0) + (box?.height ?? 0)).toBeLessThanOrEqual(height);
}

describe('the hosted payment page on a 360 × 640 phone', () => {
  const small = { width: 360, height: 640 };

  it('shows the merchant, what is paid for, the amount, the chosen provider, the phone and the pay button in the first screen', async () => {
    const created = await createPaymentRequest('2 pagnes wax, livraison Cocody');
    phone = await openPhone({ viewport: small });
    const { page } = phone;
    await page.goto(created.redirectUrl);

    // The merchant named in full, the operator by its name in its colours.
    expect(await page.locator('.store').innerText()).toBe(storeName);
    expect(await page.locator('.chip.brand-wave').innerText()).toBe('Wave');
    expect(await page.locator('.purpose').innerText()).toBe('2 pagnes wax, livraison Cocody');
    await inFirstScreen(page, page.locator('.amount'), small.height);
    await inFirstScreen(page, page.getByRole('radio', { name: 'Wave' }), small.height);
    expect(await page.getByRole('radio', { name: 'Wave' }).isChecked()).toBe(true);
    await inFirstScreen(page, page.getByText("Changer d'opérateur"), small.height);
    await inFirstScreen(page, page.getByLabel('Numéro de téléphone mobile money'), small.height);
    await inFirstScreen(page, page.getByRole('button', { name: 'Payer 1 500 F CFA' }), small.height);
    expect(await page.locator('.phone-prefix').innerText()).toBe('+225');
    await page.screenshot({ path: join(screenshotDir, 'payment-page-360x640.png') });

    // The other providers are one tap away.
    await page.getByText("Changer d'opérateur").click();
    expect(await page.getByRole('radio', { name: 'MTN MoMo' }).isVisible()).toBe(true);
  });

  it('shows a rejected submit where the eye is: an empty phone is told to be filled, in the first screen', async () => {
    const created = await createPaymentRequest();
    phone = await openPhone({ viewport: small });
    const { page } = phone;
    await page.goto(created.redirectUrl);
    const [response] = await Promise.all([
      page.waitForResponse((answer) => answer.request().method() === 'POST'),
      page.getByRole('button', { name: /^Payer/ }).click(),
    ]);
    expect(response.status()).toBe(400);
    await page.waitForLoadState();

    const summary = page.getByRole('alert');
    expect(await summary.innerText()).toContain('Saisissez votre numéro.');
    const box = await summary.boundingBox();
    const scrollY = await page.evaluate<number>('window.scrollY');
    expect((box?.y ?? -1) >= 0 && (box?.y ?? 0) + (box?.height ?? 0) <= small.height).toBe(true);
    const field = page.getByLabel('Numéro de téléphone mobile money');
    expect(await field.evaluate((element) => element === element.ownerDocument.activeElement)).toBe(true);
    const fieldBox = await field.boundingBox();
    expect((fieldBox?.y ?? -1) + (fieldBox?.height ?? 0)).toBeLessThanOrEqual(small.height);
    expect(scrollY).toBeGreaterThanOrEqual(0);
    await page.screenshot({ path: join(screenshotDir, 'payment-empty-phone-360x640.png') });

    // The summary's line leads to the field.
    expect(await page.getByRole('link', { name: 'Saisissez votre numéro.' }).getAttribute('href')).toBe(
      '#payerPhone',
    );
  });

  it("shows the provider's refusal of a number at once, in the first screen", async () => {
    const created = await createPaymentRequest();
    phone = await openPhone({ viewport: small });
    const { page } = phone;
    await page.goto(created.redirectUrl);
    await chooseProvider(page, 'Orange Money');
    await page.getByLabel('Numéro de téléphone mobile money').fill('07 00 00 00 05');
    await page.getByRole('button', { name: /^Payer/ }).click();
    await page.waitForLoadState();
    const refusal = page.getByText('Orange Money a refusé ce paiement.');
    await inFirstScreen(page, refusal, small.height);
    // The payer may try another operator or number: the request is still open.
    expect((await api('GET', `/partner_api/payment_requests/${created.id}`)).body).toMatchObject({
      status: 'pending',
      errorReason: null,
    });
  });

  it('tells the payer on the waiting page what their operator asks, and how to change the number', async () => {
    const created = await createPaymentRequest();
    const { page } = await payWithOrange(created, '+2250700000004');
    await page.getByRole('button', { name: 'Approuver' }).click();
    await page.waitForURL(/\/return/);
    expect(await page.getByText('#144*82#').isVisible()).toBe(true);
    expect(plain(await page.locator('.status').innerText())).toContain(
      'Demande envoyée au +225 07 00 00 00 04.',
    );
    await page.setViewportSize(small);
    await page.screenshot({ path: join(screenshotDir, 'payment-waiting-360x640.png') });
    await page.getByRole('link', { name: 'Changer de numéro' }).click();
    expect(page.url()).toBe(created.redirectUrl);
    expect(await page.getByLabel('Numéro de téléphone mobile money').inputValue()).toBe('07 00 00 00 04');
  });

  it("gives a receipt a payer can read out: the merchant's order and the payment reference, each labelled, date and time with the zone, operator, masked number, the operator's id", async () => {
    const created = await createPaymentRequest();
    const { page } = await payWithOrange(created);
    await page.getByRole('button', { name: 'Approuver' }).click();
    await page.waitForURL((url) => url.href === created.successUrl);
    await page.setViewportSize(small);
    await page.goto(created.redirectUrl);

    const facts = Object.fromEntries(
      await page
        .locator('.receipt dt')
        .evaluateAll((terms) =>
          terms.map((term) => [term.textContent, term.nextElementSibling?.textContent]),
        ),
    ) as Record<string, string>;
    const { body } = await api('GET', `/partner_api/payment_requests/${created.id}`);
    const [day, time] = (body.transaction.executedAt as string).split(' ');
    const [year, month, date] = (day as string).split('-');
    expect(facts['Commande du marchand']).toBe(body.reference);
    expect(facts['Référence du paiement']).toBe(
      `${body.transaction.id.slice(0, 4)}-${body.transaction.id.slice(4, 8)}`.toUpperCase(),
    );
    // The demo store is in Côte d'Ivoire, on UTC all year.
    expect(plain(facts.Date ?? '')).toBe(
      `${date}/${month}/${year} à ${(time as string).slice(0, 5)} (UTC+0)`,
    );
    expect(facts.Opérateur).toBe('Orange Money');
    expect(plain(facts.Numéro ?? '')).toBe('+225 07 •• •• •• 01');
    expect(facts['Transaction opérateur']).toBe(await readProviderReference(config, created.id));
    // Nothing breaks across lines: each value is one line high, but the merchant's own reference,
    // which is as long as the merchant made it and is shown whole.
    for (const value of await page.locator('.receipt dd:not(.receipt-order)').all()) {
      expect((await value.boundingBox())?.height).toBeLessThan(30);
    }
    const scrollWidth = await page.evaluate<number>('document.documentElement.scrollWidth');
    expect(scrollWidth).toBeLessThanOrEqual(360);
    await page.screenshot({ path: join(screenshotDir, 'payment-receipt-360x640.png') });
  });

  it('shrinks a large amount to fit a 320-pixel screen', async () => {
    const reference = `browser-${randomUUID()}`;
    const { body } = await api('POST', '/partner_api/payment_requests', {
      storeId: demo.storeId,
      amountCents: 1_850_000,
      currency: 'XOF',
      reference,
      paymentDetails: {
        type: 'redirect',
        data: { paymentMethod: 'wave', successUrl: `${baseUrl}/__test/ok`, errorUrl: `${baseUrl}/__test/ko` },
      },
    });
    phone = await openPhone({ viewport: { width: 320, height: 568 } });
    const { page } = phone;
    await page.goto(body.redirectUrl);
    const amount = page.locator('.amount');
    expect(plain(await amount.innerText())).toBe('18 500 F CFA');
    const fits = await amount.evaluate((element) => element.scrollWidth <= element.clientWidth);
    expect(fits).toBe(true);
    const box = await amount.boundingBox();
    expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(320);
    await page.screenshot({ path: join(screenshotDir, 'payment-page-320.png') });
  });
});
