import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chooseProvider } from '#test/support/browser.ts';
import { backgroundWorkMs } from '#test/support/dashboard.ts';
import {
  elementsPast,
  expectAccessibleWithin,
  expectInFirstScreen,
  phonesOfThisFile,
  signInOnPage,
  signUpOnPage,
  theLocalHost,
  verifyFirstLevel,
} from '#test/support/dashboard-setup.ts';
import { decodeQrPng, decodeQrSvg } from '#test/support/qr-images.ts';

/**
 * A shop owner's payment links on the dashboard, in Chromium. On a 360 × 640 phone in French: sign
 * up, make a link (the form's errors first), copy its address, download its QR code as PNG and SVG
 * and read them back, open the printable card, pay through the link as a customer with a sandbox
 * number, see the payment on the link's page, switch the link off and see the payer's page refuse.
 * Then on a 1280 × 800 desktop in English: the same pages, the link switched on again and payable.
 * Every page: no serious accessibility violation, nothing wider than the screen.
 */
const { baseUrl } = theLocalHost();
const phones = phonesOfThisFile();
/** The owner the phone's test signs up, whom the desktop's test signs in again, and their link. */
let owner: { phone: string; businessId: string };
let linkUrl = '';
let linkPath = '';

/** A screen whose page may read and write the clipboard, as the copy buttons need. */
const open = (viewport: { width: number; height: number }, locale: string) =>
  phones.open({ viewport, locale, permissions: ['clipboard-read', 'clipboard-write'] });

/** As `expectAccessibleWithin`, and no element reaching past the screen's edge either. */
async function checkPage(page: Page, width: number) {
  await expectAccessibleWithin(page, width);
  expect(await elementsPast(page, width)).toEqual([]);
}

/** The downloaded file of the link `name`, through the browser's download. */
async function download(page: Page, name: string): Promise<Buffer> {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name }).click()]);
  return readFileSync((await file.path()) as string);
}

/** A customer on their own phone pays the link with a sandbox number and approves at the provider. */
async function payAsCustomer(amount: string) {
  const page = await phones.open({ viewport: { width: 360, height: 640 }, locale: 'fr-CI' });
  await page.goto(linkUrl);
  await chooseProvider(page, 'Orange Money');
  await page.getByLabel('Numéro de téléphone mobile money').fill('+2250700000001');
  await page.getByRole('button', { name: `Payer ${amount}` }).click();
  await page.waitForURL(/\/sandbox\/provider\/checkout\/sbx_/);
  await page.getByRole('button', { name: 'Approuver' }).click();
  await page.waitForURL(
    (url) => url.pathname === new URL(linkUrl).pathname && url.searchParams.has('payment'),
  );
  await expect(page.locator('h1').innerText()).resolves.toBe('Paiement réussi');
  return page;
}

const payerHeading = async (page: Page) => {
  await page.goto(linkUrl);
  return page.locator('h1').innerText();
};

describe('payment links on the dashboard', () => {
  it('on a 360 × 640 phone in French: a link made, shared, paid through, and switched off', async () => {
    const page = await open({ width: 360, height: 640 }, 'fr-CI');
    owner = await signUpOnPage(page, baseUrl, 'fr');
    // Level 0 may collect nothing: the first verification level, as the identity check sets it.
    await verifyFirstLevel(owner.businessId);

    await page.getByRole('link', { name: 'Liens de paiement' }).click();
    await page.waitForURL(`${baseUrl}/dashboard/payment-links`);
    await checkPage(page, 360);
    // The primary action is on the first screen of a small phone.
    const create = page.getByRole('link', { name: 'Créer un lien de paiement' });
    await expectInFirstScreen(create, 640);
    await create.click();
    await page.waitForURL(`${baseUrl}/dashboard/payment-links/new`);
    await checkPage(page, 360);

    // A mistake first: the error summary, linked to the field.
    await page.getByLabel('Montant en francs CFA').fill('15,5');
    await page.getByRole('button', { name: 'Créer le lien' }).click();
    await expect(page.getByRole('alert').innerText()).resolves.toContain('francs entiers');
    await checkPage(page, 360);
    await page.getByLabel('Montant en francs CFA').fill('1 500');
    await page.getByLabel('Ce que le client paie').fill('Deux pagnes wax, livraison à Cocody');
    await page.getByRole('radio', { name: /^Réutilisable/ }).check();
    await page.getByRole('button', { name: 'Créer le lien' }).click();
    await page.waitForURL(/\/dashboard\/payment-links\/[0-9a-f-]{36}$/);
    linkPath = new URL(page.url()).pathname;
    await checkPage(page, 360);
    await expect(page.getByRole('heading', { level: 1 }).innerText()).resolves.toBe(
      'Deux pagnes wax, livraison à Cocody',
    );

    // Shared: its address copied with the button, a WhatsApp message, its QR code downloaded.
    linkUrl = await page.getByLabel('Adresse du lien', { exact: true }).inputValue();
    expect(linkUrl).toMatch(new RegExp(`^${baseUrl}/pl/[0-9a-f-]{36}$`));
    await page.getByRole('button', { name: 'Copier (Adresse du lien)' }).click();
    await page.locator('button[data-copy="link-url"]', { hasText: 'Copié' }).waitFor();
    await expect(page.evaluate<string>('navigator.clipboard.readText()')).resolves.toBe(linkUrl);
    const whatsapp = await page.getByRole('link', { name: 'Partager sur WhatsApp' }).getAttribute('href');
    expect(decodeURIComponent((whatsapp ?? '').replace('https://wa.me/?text=', ''))).toContain(linkUrl);
    expect(decodeQrPng(await download(page, 'Télécharger le code QR (PNG)'))).toBe(linkUrl);
    expect(decodeQrSvg((await download(page, 'Télécharger le code QR (SVG)')).toString('utf8'))).toBe(
      linkUrl,
    );

    await page.getByRole('link', { name: /^Carte « Scannez pour payer »/ }).click();
    await page.waitForURL(`${baseUrl}${linkPath}/card`);
    await checkPage(page, 360);
    await expect(page.locator('main').innerText()).resolves.toContain('Scannez pour payer');
    await page.emulateMedia({ media: 'print' });
    await expect(page.locator('.how').isVisible()).resolves.toBe(false);
    await page.emulateMedia({ media: 'screen' });
    await page.getByRole('link', { name: 'Retour au lien' }).click();
    await page.waitForURL(`${baseUrl}${linkPath}`);

    // A customer pays through it; the payment shows on the link's page.
    const customer = await payAsCustomer('1 500 F CFA');
    // The payment shows once its callback is handled: the page as the owner reloads it.
    await expect
      .poll(
        async () => {
          await page.reload();
          return page.getByTestId('link-payments').count();
        },
        { timeout: backgroundWorkMs },
      )
      .toBeGreaterThan(0);
    await expect(page.getByTestId('link-payments').innerText()).resolves.toMatch(
      /1\s500\sF\sCFA[\s\S]*Réussi/,
    );
    await checkPage(page, 360);

    // Switched off: the payer's page refuses.
    await page.getByRole('button', { name: 'Désactiver le lien' }).click();
    await page.waitForURL(`${baseUrl}${linkPath}`);
    await expect(page.getByTestId('link-state').innerText()).resolves.toBe('Désactivé');
    await checkPage(page, 360);
    await expect(payerHeading(customer)).resolves.toBe(
      'Ce lien de paiement n’est plus actif'.replace('’', "'"),
    );
    expect(await customer.locator('form').count()).toBe(0);
  });

  it('on a 1280 × 800 desktop in English: the same pages, and the link switched on again takes a payment', async () => {
    const page = await open({ width: 1280, height: 800 }, 'en-GB');
    await page.goto(`${baseUrl}/dashboard/sign-in`);
    await signInOnPage(page, owner.phone, 'en');
    await page.waitForURL(`${baseUrl}/dashboard`);

    await page.getByRole('link', { name: 'Payment links' }).click();
    await checkPage(page, 1280);
    const listed = (await page.getByTestId('payment-links').innerText()).replace(/\s+/g, ' ');
    expect(listed).toContain('Deux pagnes wax, livraison à Cocody');
    expect(listed).toContain('1 500 F CFA');
    expect(listed).toContain('Reusable');
    expect(listed).toContain('Switched off');
    await page.getByRole('link', { name: 'Create a payment link' }).click();
    await checkPage(page, 1280);
    await page.getByRole('button', { name: 'Create the link' }).click();
    await expect(page.getByRole('alert').innerText()).resolves.toContain('Enter the amount');
    await checkPage(page, 1280);

    await page.goto(`${baseUrl}${linkPath}`);
    await checkPage(page, 1280);
    await expect(page.getByTestId('link-payments').innerText()).resolves.toContain('Succeeded');
    await page.getByRole('button', { name: 'Switch the link on again' }).click();
    await page.waitForURL(`${baseUrl}${linkPath}`);
    await expect(page.getByTestId('link-state').innerText()).resolves.toBe('On');
    await page.getByRole('link', { name: /^Printable “Scan to pay” card/ }).click();
    await checkPage(page, 1280);
    await payAsCustomer('1 500 F CFA');
  });
});
