import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { useLocalAws } from '#infra/local/local-config.ts';
import { seriousAxeViolations } from '#test/support/accessibility.ts';
import { chooseProvider, openPhone, type PhoneBrowser } from '#test/support/browser.ts';
import { newDashboardPhone, nextCodeOf, signInCodesOf } from '#test/support/dashboard.ts';
import { decodeQrPng, decodeQrSvg } from '#test/support/qr-images.ts';

/**
 * A shop owner's payment links on the dashboard, in Chromium. On a 360 × 640 phone in French: sign
 * up, make a link (the form's errors first), copy its address, download its QR code as PNG and SVG
 * and read them back, open the printable card, pay through the link as a customer with a sandbox
 * number, see the payment on the link's page, switch the link off and see the payer's page refuse.
 * Then on a 1280 × 800 desktop in English: the same pages, the link switched on again and payable.
 * Every page: no serious accessibility violation, nothing wider than the screen.
 */
const { config } = inject('localHost');
const baseUrl = config.baseUrl;
const opened: PhoneBrowser[] = [];
const owner = { phone: newDashboardPhone(), businessId: '' };
let linkUrl = '';
let linkPath = '';

beforeAll(() => useLocalAws(config.endpoints, config.tableName));
afterAll(async () => {
  await Promise.all(opened.map((browser) => browser.close()));
});

async function open(viewport: { width: number; height: number }, locale: string): Promise<Page> {
  const browser = await openPhone({ viewport, locale });
  opened.push(browser);
  await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl });
  return browser.page;
}

async function checkPage(page: Page, width: number) {
  expect(await seriousAxeViolations(page)).toEqual([]);
  const wide = await page.evaluate<string[]>(
    `[...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > ${width}).map((e) => e.outerHTML.slice(0, 120))`,
  );
  expect(wide).toEqual([]);
  expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(width);
}

/** At level 0 a business collects nothing: the first verification level, as verification sets it. */
async function verifyFirstLevel(businessId: string) {
  const { documentClient, tableName } = await import('#shared/aws/dynamodb.ts');
  const { UpdateCommand } = await import('@aws-sdk/lib-dynamodb');
  await documentClient.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: { pk: `BIZ#${businessId}`, sk: 'PROFILE' },
      UpdateExpression: 'SET verificationLevel = :one',
      ExpressionAttributeValues: { ':one': 1 },
    }),
  );
  await new Promise((resolve) => setTimeout(resolve, 2100)); // the local host caches a business 2 s
}

/** The downloaded file of the link `name`, through the browser's download. */
async function download(page: Page, name: string): Promise<Buffer> {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name }).click()]);
  return readFileSync((await file.path()) as string);
}

/** A customer on their own phone pays the link with a sandbox number and approves at the provider. */
async function payAsCustomer(amount: string) {
  const customer = await openPhone({ viewport: { width: 360, height: 640 }, locale: 'fr-CI' });
  opened.push(customer);
  const page = customer.page;
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
    await page.goto(`${baseUrl}/dashboard/sign-in`);
    await page.getByLabel('Numéro de téléphone').fill(owner.phone);
    await page.getByRole('button', { name: 'Recevoir un code' }).click();
    await page.waitForURL(`${baseUrl}/dashboard/sign-in/code`);
    await page.getByLabel('Code à 6 chiffres').fill(await nextCodeOf(baseUrl, owner.phone, 0));
    await page.getByRole('button', { name: 'Continuer' }).click();
    await page.waitForURL(`${baseUrl}/dashboard/sign-up`);
    await page.getByLabel('Votre prénom').fill('Awa');
    await page.getByLabel('Votre nom').fill('Koné');
    await page.getByLabel('Nom de l’entreprise').fill('Boutique Awa');
    await page.getByLabel('Activité').selectOption('commerce.boutique');
    await page.getByLabel('Nom de votre premier point de vente').fill('Cocody');
    await page.getByRole('button', { name: 'Créer mon entreprise' }).click();
    await page.waitForURL(`${baseUrl}/dashboard`);
    owner.businessId = (await page.getByTestId('business-name').getAttribute('data-business-id')) ?? '';
    await verifyFirstLevel(owner.businessId);

    await page.getByRole('link', { name: 'Liens de paiement' }).click();
    await page.waitForURL(`${baseUrl}/dashboard/payment-links`);
    await checkPage(page, 360);
    // The primary action is on the first screen of a small phone.
    const create = page.getByRole('link', { name: 'Créer un lien de paiement' });
    const box = await create.boundingBox();
    expect((box?.y ?? 999) + (box?.height ?? 0)).toBeLessThanOrEqual(640);
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
    await page.locator('button[data-copy="link-url"]', { hasText: 'Copié' }).waitFor({ timeout: 5000 });
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
    const deadline = Date.now() + 15_000;
    do {
      await page.reload();
      if ((await page.getByTestId('link-payments').count()) > 0) break;
      await page.waitForTimeout(500);
    } while (Date.now() < deadline);
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
    const had = (await signInCodesOf(baseUrl, owner.phone)).length;
    await page.goto(`${baseUrl}/dashboard/sign-in`);
    await page.getByLabel('Phone number').fill(owner.phone);
    await page.getByRole('button', { name: 'Get a code' }).click();
    await page.getByLabel('6-digit code').fill(await nextCodeOf(baseUrl, owner.phone, had));
    await page.getByRole('button', { name: 'Continue' }).click();
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
