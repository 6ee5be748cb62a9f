import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { useLocalAws } from '#infra/local/local-config.ts';
import { seriousAxeViolations } from '#test/support/accessibility.ts';
import { chooseProvider, openPhone, type PhoneBrowser } from '#test/support/browser.ts';
import { newDashboardPhone, nextCodeOf } from '#test/support/dashboard.ts';
import { admin } from '#test/support/local-host.ts';

/**
 * A shop owner asks for a payment by SMS, in Chromium: on a 360 × 640 phone in French, the form
 * (its button on the first screen), the check step with the text and its cost, the request's
 * page; the payer opens the SMS in the local inbox, follows its link and pays on the hosted page
 * with a sandbox number; the owner's page turns to "paid" by itself. Then the SMS page. On a
 * desktop in English, the same pages and an SMS sent. Every page: no serious accessibility
 * violation, nothing wider than the screen.
 */
const { config, dataDir } = inject('localHost');
const baseUrl = config.baseUrl;
const opened: PhoneBrowser[] = [];

beforeAll(() => {
  useLocalAws(config.endpoints, config.tableName);
});
afterAll(async () => {
  await Promise.all(opened.map((browser) => browser.close()));
});

async function open(viewport: { width: number; height: number }, locale: string): Promise<Page> {
  const browser = await openPhone({ viewport, locale });
  opened.push(browser);
  return browser.page;
}

async function checkPage(page: Page, width: number) {
  expect(await seriousAxeViolations(page)).toEqual([]);
  expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(width);
}

/** A level-1 business (a level-0 one may collect nothing) with SMS to spend. */
async function readyToAsk(businessId: string) {
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
  await admin(dataDir, 'credit-sms', '--business', businessId, '--segments', '10');
  await new Promise((resolve) => setTimeout(resolve, 2100)); // the local host caches a business 2 s
}

/** Through the sign-in and sign-up pages, in the page's language. */
async function signUp(page: Page, language: 'fr' | 'en'): Promise<string> {
  const phone = newDashboardPhone();
  const fr = language === 'fr';
  await page.goto(`${baseUrl}/dashboard/sign-in`);
  await page.getByLabel(fr ? 'Numéro de téléphone' : 'Phone number').fill(phone);
  await page.getByRole('button', { name: fr ? 'Recevoir un code' : 'Get a code' }).click();
  await page.waitForURL(`${baseUrl}/dashboard/sign-in/code`);
  await page.getByLabel(fr ? 'Code à 6 chiffres' : '6-digit code').fill(await nextCodeOf(baseUrl, phone, 0));
  await page.getByRole('button', { name: fr ? 'Continuer' : 'Continue' }).click();
  await page.waitForURL(`${baseUrl}/dashboard/sign-up`);
  await page.getByLabel(fr ? 'Votre prénom' : 'Your first name').fill('Awa');
  await page.getByLabel(fr ? 'Votre nom' : 'Your last name').fill('Kone');
  await page.getByLabel(fr ? 'Nom de l’entreprise' : 'Business name').fill('Boutique Awa');
  await page.getByLabel(fr ? 'Activité' : 'Activity').selectOption('commerce.boutique');
  await page
    .getByLabel(fr ? 'Nom de votre premier point de vente' : 'Name of your first point of sale')
    .fill('Cocody');
  await page.getByRole('button', { name: fr ? 'Créer mon entreprise' : 'Create my business' }).click();
  await page.waitForURL(`${baseUrl}/dashboard`);
  const businessId = (await page.getByTestId('business-name').getAttribute('data-business-id')) ?? '';
  await readyToAsk(businessId);
  return businessId;
}

/** The link of the newest SMS a phone got, from the local inbox as a person would open it. */
async function linkInInbox(page: Page, phone: string): Promise<string> {
  for (let tries = 0; ; tries++) {
    await page.goto(`${baseUrl}/__local/sms`);
    const sms = page.locator(`section.phone[data-number="${phone}"] li.sms`).first();
    if ((await sms.count()) > 0) {
      const text = (await sms.evaluate((item) => item.firstChild?.textContent ?? '')) as string;
      const link = /https?:\/\/\S+/.exec(text)?.[0];
      if (link) return link;
    }
    if (tries > 50) throw new Error(`no SMS for ${phone}`);
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

/** The payer on the hosted page: a provider, the sandbox number that pays, the approval. */
async function payOnHostedPage(page: Page, link: string, language: 'fr' | 'en') {
  const fr = language === 'fr';
  await page.goto(link);
  await chooseProvider(page, 'Orange Money');
  await page
    .getByLabel(fr ? 'Numéro de téléphone mobile money' : 'Mobile-money phone number')
    .fill('+2250700000001');
  await page.getByRole('button', { name: fr ? /^Payer 1\s500\sF\sCFA$/ : /^Pay 1\s500\sF\sCFA$/ }).click();
  await page.waitForURL(/\/sandbox\/provider\/checkout\/sbx_/);
  await page.getByRole('button', { name: fr ? 'Approuver' : 'Approve' }).click();
  await page.waitForURL((url) => url.pathname.startsWith('/payment/'));
}

describe('asking for a payment by SMS on the dashboard', () => {
  it('on a 360 × 640 phone in French: asked, texted, paid from the SMS inbox, shown paid', async () => {
    const page = await open({ width: 360, height: 640 }, 'fr-CI');
    await signUp(page, 'fr');
    await page.getByRole('link', { name: 'Demander un paiement' }).click();
    await page.waitForURL(`${baseUrl}/dashboard/payment-requests`);
    await checkPage(page, 360);
    await expect(page.getByTestId('sms-balance').textContent()).resolves.toBe('Solde SMS : 10 SMS.');
    // Phone-first: the form's button is on the first screen.
    const button = await page.getByRole('button', { name: 'Continuer' }).boundingBox();
    expect((button?.y ?? 999) + (button?.height ?? 0)).toBeLessThanOrEqual(640);

    const payer = newDashboardPhone();
    await page.getByLabel('Montant (F CFA)').fill('1 500');
    await page.getByLabel('Numéro du client').fill(`0${payer.slice(5)}`);
    await page.getByLabel('Motif (facultatif)').fill('Deux pagnes wax');
    await page.getByRole('button', { name: 'Continuer' }).click();
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Vérifiez la demande');
    await checkPage(page, 360);
    await expect(page.getByTestId('sms-text').textContent()).resolves.toContain(
      'Boutique Awa vous demande 1 500 F CFA (Deux pagnes wax). Payez ici : ',
    );
    await page.getByRole('button', { name: 'Envoyer la demande par SMS' }).click();
    await page.waitForURL(/\/dashboard\/payment-requests\/[0-9a-f-]{36}$/);
    const requestPage = page.url();
    await checkPage(page, 360);
    await expect(page.locator('[data-status]').first().getAttribute('data-status')).resolves.toBe('pending');

    // The payer, on another phone: the SMS, its link, the hosted page, a sandbox number that pays.
    const payerPage = await open({ width: 360, height: 640 }, 'fr-CI');
    const link = await linkInInbox(payerPage, payer);
    expect(link).toBe(`${baseUrl}/payment/${requestPage.split('/').pop()}`);
    await payOnHostedPage(payerPage, link, 'fr');

    // The owner's page follows the payment by itself (the waiting script), without a reload.
    await page.locator('[data-status="paid"]').waitFor({ timeout: 20_000 });
    expect(page.url()).toContain(requestPage);
    await checkPage(page, 360);
    await page.getByRole('link', { name: 'Retour aux demandes' }).click();
    await expect(
      page.getByTestId('asked-requests').locator('[data-status]').first().textContent(),
    ).resolves.toBe('Payée');

    await page.getByRole('link', { name: 'SMS', exact: true }).click();
    await page.waitForURL(`${baseUrl}/dashboard/sms`);
    await checkPage(page, 360);
    const send = await page.getByRole('button', { name: 'Continuer' }).boundingBox();
    expect((send?.y ?? 999) + (send?.height ?? 0)).toBeLessThanOrEqual(640);
    await expect(page.getByTestId('sent-sms').textContent()).resolves.toContain(link);
  });

  it('on a 1280 × 800 desktop in English: the same pages, and an SMS sent from the SMS page', async () => {
    const page = await open({ width: 1280, height: 800 }, 'en-GB');
    await signUp(page, 'en');
    await page.getByRole('link', { name: 'Ask for a payment' }).click();
    await checkPage(page, 1280);
    const payer = newDashboardPhone();
    await page.getByLabel('Amount (F CFA)').fill('1500');
    await page.getByLabel('Customer’s number').fill(payer);
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Check the request');
    await checkPage(page, 1280);
    await page.getByRole('button', { name: 'Send the request by SMS' }).click();
    await page.waitForURL(/\/dashboard\/payment-requests\/[0-9a-f-]{36}$/);
    await checkPage(page, 1280);
    await expect(page.locator('[data-status]').first().textContent()).resolves.toBe('Pending');

    const payerPage = await open({ width: 1280, height: 800 }, 'en-GB');
    await payOnHostedPage(payerPage, await linkInInbox(payerPage, payer), 'en');
    await page.locator('[data-status="paid"]').waitFor({ timeout: 20_000 });
    await checkPage(page, 1280);

    await page.getByRole('link', { name: 'SMS', exact: true }).click();
    await checkPage(page, 1280);
    const to = newDashboardPhone();
    await page.getByLabel('Recipient').fill(to);
    await page.getByLabel('Message').fill('Thank you for your order.');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByTestId('sms-segments').textContent()).resolves.toContain('Cost: 1 SMS');
    await checkPage(page, 1280);
    await page.getByRole('button', { name: 'Send the SMS' }).click();
    await page.waitForURL(`${baseUrl}/dashboard/sms`);
    await checkPage(page, 1280);
    await expect(page.getByTestId('sms-balance').textContent()).resolves.toMatch(/^Balance: \d+ SMS$/);
    await expect(page.getByTestId('sent-sms').locator('li').first().textContent()).resolves.toContain(
      'Thank you for your order.',
    );
  });
});
