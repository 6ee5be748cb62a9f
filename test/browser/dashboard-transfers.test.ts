import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { useLocalAws } from '#infra/local/local-config.ts';
import { formatAmount } from '#shared/pages/format.ts';
import { seriousAxeViolations } from '#test/support/accessibility.ts';
import { apiClient } from '#test/support/api-client.ts';
import { openPhone, type PhoneBrowser } from '#test/support/browser.ts';
import { nextCodeOf, signInCodesOf, signUpOwner } from '#test/support/dashboard.ts';
import { admin } from '#test/support/local-host.ts';
import { paidPayment } from '#test/support/paid-payments.ts';

/**
 * Send money on the dashboard, in Chromium: a shop owner whose store was paid adds a contact,
 * sends it more than the default threshold (100 000 F CFA), types the code the SMS brought, and
 * sees the transfer in the list with its status, the API showing the same amount. On a 360 × 640
 * phone in French, then on a 1280 × 800 desktop in English; every page without a serious
 * accessibility violation and no wider than the screen.
 */
const { config, dataDir } = inject('localHost');
const baseUrl = config.baseUrl;
const call = apiClient(baseUrl);
const opened: PhoneBrowser[] = [];

beforeAll(() => {
  useLocalAws(config.endpoints, config.tableName);
});
afterAll(async () => {
  await Promise.all(opened.map((browser) => browser.close()));
});

async function checkPage(page: Page, width: number) {
  expect(await seriousAxeViolations(page)).toEqual([]);
  expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(width);
}

/** A signed-up owner with API access whose store was paid 500 000 F CFA, signed in in a browser of that size. */
async function paidOwnerIn(viewport: { width: number; height: number }, locale: string) {
  const owner = await signUpOwner(baseUrl);
  const { documentClient, tableName } = await import('#shared/aws/dynamodb.ts');
  const { UpdateCommand } = await import('@aws-sdk/lib-dynamodb');
  await documentClient.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: { pk: `BIZ#${owner.businessId}`, sk: 'PROFILE' },
      UpdateExpression: 'SET apiAccessEnabled = :on, verificationLevel = :one',
      ExpressionAttributeValues: { ':on': true, ':one': 1 },
    }),
  );
  const { keyId, key } = await admin(dataDir, 'create-key', '--business', owner.businessId);
  const headers = {
    'X-API-KEY-ID': keyId as string,
    'X-API-KEY': key as string,
    'content-type': 'application/json',
  };
  const storeId = (await call('GET', '/partner_api/stores', headers)).body[0].id as string;
  await paidPayment(config, headers, {
    storeId,
    amountCents: 50_000_000,
    paymentMethod: 'wave',
    payerPhone: '+2250700000001',
  });
  const browser = await openPhone({ viewport, locale });
  opened.push(browser);
  // The session the sign-up began, handed to the browser as its cookie.
  await browser.context.addCookies(
    [...owner.browser.cookies].map(([name, value]) => ({ name, value, url: baseUrl })),
  );
  return { ...owner, headers, storeId, page: browser.page };
}

const words = {
  fr: {
    contacts: 'Contacts',
    name: 'Nom du bénéficiaire',
    operator: 'Opérateur',
    number: 'Numéro de téléphone',
    add: 'Ajouter le contact',
    send: 'Envoyer de l’argent',
    sendTo: (name: string) => `Envoyer de l’argent à ${name}`,
    amount: 'Montant en F CFA',
    continue: 'Continuer',
    check: 'Vérifiez l’envoi',
    code: 'Code envoyé par SMS',
    sendButton: (amount: string) => `Envoyer ${amount}`,
    sent: /Transfert enregistré : (en cours|réussi)/,
    status: /en cours|réussi/,
  },
  en: {
    contacts: 'Contacts',
    name: 'Beneficiary’s name',
    operator: 'Operator',
    number: 'Phone number',
    add: 'Add the contact',
    send: 'Send money',
    sendTo: (name: string) => `Send money to ${name}`,
    amount: 'Amount in F CFA',
    continue: 'Continue',
    check: 'Check the transfer',
    code: 'Code sent by SMS',
    sendButton: (amount: string) => `Send ${amount}`,
    sent: /Transfer recorded: (pending|successful)/,
    status: /pending|successful/,
  },
};

/** The page's primary action lies within the first screen, without scrolling. */
async function inFirstScreen(page: Page, name: string, height: number) {
  const box = await page.getByRole('button', { name }).boundingBox();
  expect(box && box.y + box.height, name).toBeLessThanOrEqual(height);
}

async function sendAboveThreshold(
  viewport: { width: number; height: number },
  locale: string,
  language: 'fr' | 'en',
) {
  const t = words[language];
  const owner = await paidOwnerIn(viewport, locale);
  const { page } = owner;
  const width = viewport.width;

  // The send-money page: its primary action inside the first screen.
  await page.goto(`${baseUrl}/dashboard/transfers`);
  await checkPage(page, width);
  const primary = await page.locator('a.button', { hasText: t.send }).boundingBox();
  expect(primary && primary.y + primary.height).toBeLessThanOrEqual(viewport.height);

  await page.getByRole('link', { name: t.contacts, exact: true }).click();
  await page.waitForURL(/\/dashboard\/contacts/);
  await checkPage(page, width);
  await page.getByLabel(t.name).fill('Fatou Diallo');
  await page.getByLabel(t.operator).selectOption('orange');
  await page.getByLabel(t.number).fill('07 00 00 00 01');
  await page.getByRole('button', { name: t.add }).click();
  await page.waitForURL(/\/dashboard\/contacts\?added=/);
  await checkPage(page, width);

  await page.getByRole('link', { name: t.sendTo('Fatou Diallo') }).click();
  await page.waitForURL(/\/dashboard\/transfers\/new/);
  await checkPage(page, width);
  await inFirstScreen(page, t.continue, viewport.height);
  await page.getByLabel(t.amount).fill('150 000');
  const had = (await signInCodesOf(baseUrl, owner.phone)).length;
  await page.getByRole('button', { name: t.continue }).click();
  await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(t.check);
  await checkPage(page, width);
  // 1 % payout fee: 1 500 F, and the store debited 151 500 F.
  await expect(page.getByTestId('fee').textContent()).resolves.toBe(formatAmount(150_000));
  await expect(page.getByTestId('total').textContent()).resolves.toBe(formatAmount(15_150_000));

  await inFirstScreen(page, t.sendButton(formatAmount(15_150_000)), viewport.height);
  await page.getByLabel(t.code).fill(await nextCodeOf(baseUrl, owner.phone, had));
  await page.getByRole('button', { name: t.sendButton(formatAmount(15_150_000)) }).click();
  await page.waitForURL(/\/dashboard\/transfers\?(?:lang=\w+&)?sent=/);
  await checkPage(page, width);
  await expect(page.getByRole('status').first().textContent()).resolves.toMatch(t.sent);
  const transferId = /sent=([0-9a-f-]{36})/.exec(page.url())?.[1] ?? '';
  const item = page.locator(`[data-transfer-id="${transferId}"]`);
  await expect(item.textContent()).resolves.toContain('Fatou Diallo');
  await expect(item.locator('[data-status]').textContent()).resolves.toMatch(t.status);

  const viaApi = await call('GET', `/partner_api/transfers/${transferId}`, owner.headers);
  expect(viaApi.body).toMatchObject({
    amount: { amount: 15_000_000 },
    fees: { amount: 150_000 },
    beneficiaryName: 'Fatou Diallo',
  });
}

describe('send money on the dashboard', () => {
  it('on a 360 × 640 phone in French: a contact added, sent 150 000 F CFA with the SMS code, listed with its status', async () => {
    await sendAboveThreshold({ width: 360, height: 640 }, 'fr-CI', 'fr');
  });

  it('on a 1280 × 800 desktop in English: the same', async () => {
    await sendAboveThreshold({ width: 1280, height: 800 }, 'en-GB', 'en');
  });
});
