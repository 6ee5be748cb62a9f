import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiClient, demoApi, type Merchant, newMerchant } from '#test/support/api-client.ts';
import { chooseProvider, openPhone, type PhoneBrowser, screenshotDir } from '#test/support/browser.ts';

const { config, dataDir } = inject('localHost');
const { baseUrl, demo } = config;
const demoCall = demoApi(config);
const send = apiClient(baseUrl);

/** A store in Dakar, whose payers type their numbers the Senegalese way. */
let dakar: Merchant;
let phone: PhoneBrowser | undefined;

beforeAll(async () => {
  dakar = await newMerchant(dataDir, 'Boutique Dakar', 'SN');
  mkdirSync(screenshotDir, { recursive: true });
});

afterEach(async () => {
  await phone?.close();
  phone = undefined;
});

interface Created {
  id: string;
  redirectUrl: string;
  successUrl: string;
}

/** A redirect request of 1 500 F CFA, by the demo (Ivorian) store unless another merchant is given. */
async function createPaymentRequest(paymentMethod: string, merchant?: Merchant): Promise<Created> {
  const reference = `zone-${randomUUID()}`;
  const successUrl = `${baseUrl}/__test/success?ref=${reference}`;
  const body = {
    storeId: merchant?.storeId ?? demo.storeId,
    amountCents: 150000,
    currency: 'XOF',
    reference,
    paymentDetails: {
      type: 'redirect',
      data: { paymentMethod, successUrl, errorUrl: `${baseUrl}/__test/error` },
    },
  };
  const answer = merchant
    ? await send('POST', '/partner_api/payment_requests', merchant.headers, body)
    : await demoCall('POST', '/partner_api/payment_requests', body);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return { id: answer.body.id, redirectUrl: answer.body.redirectUrl, successUrl };
}

async function openPage(url: string): Promise<Page> {
  phone = await openPhone({ viewport: { width: 360, height: 640 } });
  await phone.page.goto(url);
  return phone.page;
}

async function offeredProviders(page: Page): Promise<(string | null)[]> {
  const values = [];
  for (const input of await page.locator('input[name="paymentMethod"]').all())
    values.push(await input.getAttribute('value'));
  return values;
}

/** Pay, approve on the sandbox provider's page, and land on the merchant's success URL. */
async function payAndApprove(page: Page, created: Created, expectedPhone: string) {
  await page.getByRole('button', { name: /^Payer/ }).click();
  await page.waitForURL(/\/sandbox\/provider\/checkout\/sbx_/);
  expect(await page.getByLabel('Téléphone du payeur').inputValue()).toBe(expectedPhone);
  await page.getByRole('button', { name: 'Approuver' }).click();
  await page.waitForURL((url) => url.href === created.successUrl);
}

async function statusOf(created: Created, merchant?: Merchant) {
  const path = `/partner_api/payment_requests/${created.id}`;
  return (merchant ? await send('GET', path, merchant.headers) : await demoCall('GET', path)).body;
}

describe('payers of every country of the zone, on the hosted page at 360 × 640', () => {
  it('a Senegalese Wave payer of a Dakar store types the number the local way and pays', async () => {
    const created = await createPaymentRequest('wave', dakar);
    const page = await openPage(created.redirectUrl);
    // The store's country is chosen, and only its providers are offered.
    expect(await page.getByLabel('Pays du numéro').inputValue()).toBe('SN');
    expect((await offeredProviders(page)).sort()).toEqual(['orange', 'wave']);
    expect(await page.locator('.phone-prefix').innerText()).toBe('+221');
    expect(await page.getByRole('radio', { name: 'Wave' }).isChecked()).toBe(true);
    await page.screenshot({ path: join(screenshotDir, 'payment-senegal-360.png') });
    // A national number, read in the store's country.
    await page.getByLabel('Numéro de téléphone mobile money').fill('77 000 00 01');
    await payAndApprove(page, created, '+221770000001');
    const body = await statusOf(created, dakar);
    expect(body).toMatchObject({
      status: 'success',
      transaction: { counterpartIdentifier: '+221770000001' },
    });
  });

  it('a Malian Orange Money payer changes the country on the page (a plain GET form) and pays', async () => {
    const created = await createPaymentRequest('orange');
    const page = await openPage(created.redirectUrl);
    expect(await page.getByLabel('Pays du numéro').inputValue()).toBe('CI');
    await page.getByLabel('Pays du numéro').selectOption('ML');
    await page.getByRole('button', { name: 'Changer', exact: true }).click();
    await page.waitForURL((url) => url.searchParams.get('country') === 'ML');
    expect((await offeredProviders(page)).sort()).toEqual(['moov', 'orange', 'wave']);
    expect(await page.locator('.phone-prefix').innerText()).toBe('+223');
    await chooseProvider(page, 'Orange Money');
    await page.getByLabel('Numéro de téléphone mobile money').fill('70 00 00 01');
    await payAndApprove(page, created, '+22370000001');
    expect(await statusOf(created)).toMatchObject({
      status: 'success',
      paymentMethod: 'orange',
      transaction: { counterpartIdentifier: '+22370000001' },
    });
  });

  it('a Beninese MTN payer types the number with its code on an Ivorian store’s page and pays', async () => {
    const created = await createPaymentRequest('mtn');
    const page = await openPage(created.redirectUrl);
    await chooseProvider(page, 'MTN MoMo');
    await page.getByLabel('Numéro de téléphone mobile money').fill('+229 01 90 00 00 01');
    await payAndApprove(page, created, '+2290190000001');
    expect(await statusOf(created)).toMatchObject({
      status: 'success',
      transaction: { counterpartIdentifier: '+2290190000001' },
    });
  });

  it('a Togolese number offered Wave is refused with a clear message, and Moov Money is offered', async () => {
    const created = await createPaymentRequest('wave');
    const page = await openPage(created.redirectUrl);
    await page.getByLabel('Numéro de téléphone mobile money').fill('+228 90 00 00 01');
    const answer = page.waitForResponse((response) => response.request().method() === 'POST');
    await page.getByRole('button', { name: /^Payer/ }).click();
    expect((await answer).status()).toBe(400);
    const summary = await page.locator('#form-errors').innerText();
    expect(summary).toContain(
      'Wave ne prend pas les paiements au Togo. Choisissez un autre moyen de paiement.',
    );
    expect(await page.locator('#method-error').innerText()).toContain(
      'Wave ne prend pas les paiements au Togo',
    );
    // The form comes back in the number's country, with that country's providers only.
    expect(await page.getByLabel('Pays du numéro').inputValue()).toBe('TG');
    expect(await offeredProviders(page)).toEqual(['moov']);
    expect(await page.getByRole('button', { name: /^Payer/ }).isVisible()).toBe(true);
    await page.screenshot({ path: join(screenshotDir, 'payment-togo-wave-refused-360.png'), fullPage: true });
    expect((await statusOf(created)).status).toBe('pending');
    // Togo's only provider is chosen already.
    expect(await page.getByRole('radio', { name: 'Moov Money' }).isChecked()).toBe(true);
    // Nothing went to a provider: the page still takes the payment with Moov Money.
    await chooseProvider(page, 'Moov Money');
    await payAndApprove(page, created, '+22890000001');
    expect((await statusOf(created)).status).toBe('success');
  });

  it('a Guinea-Bissau payer is told no provider works there yet, in English too', async () => {
    const created = await createPaymentRequest('wave');
    const page = await openPage(`${created.redirectUrl}?lang=en&country=GW`);
    expect(await offeredProviders(page)).toEqual([]);
    expect(await page.locator('#no-provider').innerText()).toBe(
      'None of our payment methods works in Guinea-Bissau yet. You can pay with a number of another country.',
    );
    // The language chosen survives a change of country: the GET form carries it.
    await page.getByLabel('Country of the number').selectOption('SN');
    await page.getByRole('button', { name: 'Change', exact: true }).click();
    await page.waitForURL((url) => url.searchParams.get('country') === 'SN');
    expect(new URL(page.url()).searchParams.get('lang')).toBe('en');
    expect((await offeredProviders(page)).sort()).toEqual(['orange', 'wave']);
  });
});
