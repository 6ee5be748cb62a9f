import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { useLocalAws } from '#infra/local/local-config.ts';
import { formatAmount } from '#shared/pages/format.ts';
import { seriousAxeViolations } from '#test/support/accessibility.ts';
import { apiClient } from '#test/support/api-client.ts';
import { openPhone, type PhoneBrowser } from '#test/support/browser.ts';
import { newDashboardPhone, nextCodeOf, signInCodesOf } from '#test/support/dashboard.ts';
import { admin } from '#test/support/local-host.ts';

/**
 * The dashboard's home in Chromium: a shop owner signs up on a small phone in French, a payment is
 * made through the API and paid in the sandbox, and the home page shows it with the amounts the
 * API gives (the store's balance, the list's line), the balance in the first screen; then on a
 * desktop in English, a second payment and the same agreement. Every page: no serious
 * accessibility violation, nothing wider than the screen.
 */
const { config, dataDir } = inject('localHost');
const baseUrl = config.baseUrl;
const call = apiClient(baseUrl);
const opened: PhoneBrowser[] = [];
const owner = {
  phone: newDashboardPhone(),
  businessId: '',
  storeId: '',
  headers: {} as Record<string, string>,
};

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

/** What the first verification level does (the identity check has its own test): API access on, and a key. */
async function apiAccessFor(businessId: string) {
  const { documentClient, tableName } = await import('#shared/aws/dynamodb.ts');
  const { UpdateCommand } = await import('@aws-sdk/lib-dynamodb');
  await documentClient.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: { pk: `BIZ#${businessId}`, sk: 'PROFILE' },
      UpdateExpression: 'SET apiAccessEnabled = :on, verificationLevel = :one',
      ExpressionAttributeValues: { ':on': true, ':one': 1 },
    }),
  );
  const { keyId, key } = await admin(dataDir, 'create-key', '--business', businessId);
  return { 'X-API-KEY-ID': keyId as string, 'X-API-KEY': key as string, 'content-type': 'application/json' };
}

async function sandboxPayment(amountCents: number) {
  const created = await call('POST', '/partner_api/payment_requests', owner.headers, {
    storeId: owner.storeId,
    amountCents,
    currency: 'XOF',
    reference: `home-${randomUUID()}`,
    paymentDetails: {
      type: 'redirect',
      data: { paymentMethod: 'wave', successUrl: 'https://a.example/ok', errorUrl: 'https://a.example/ko' },
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const paid = await call('POST', `/sandbox/payment_requests/${created.body.id}/approve`, owner.headers, {
    payerPhone: '+2250700000001',
  });
  expect(paid.body.status).toBe('success');
}

/** The home page against the API: the balance, today's collected total and the latest lines. */
async function expectTheApiAmounts(page: Page) {
  const balance = await call('GET', `/partner_api/stores/${owner.storeId}/balance`, owner.headers);
  const list = await call('GET', `/partner_api/transactions?storeId=${owner.storeId}`, owner.headers);
  const lines = list.body.data as { id: string; createdAt: string; amount: { amount: number } }[];
  await expect(page.getByTestId('available').textContent()).resolves.toBe(formatAmount(balance.body.amount));
  const collected = lines.reduce((sum, line) => sum + line.amount.amount, 0);
  await expect(page.getByTestId('today-collected').textContent()).resolves.toBe(formatAmount(collected));
  const shown = page.getByTestId('latest-line');
  await expect(shown.count()).resolves.toBe(lines.length);
  for (const [index, line] of lines.entries()) {
    const row = shown.nth(index);
    await expect(row.getAttribute('data-transaction-id')).resolves.toBe(line.id);
    await expect(row.getByTestId('latest-amount').textContent()).resolves.toBe(
      formatAmount(line.amount.amount),
    );
    await expect(row.getByRole('link').getAttribute('href')).resolves.toBe(
      `${baseUrl}/dashboard/transactions/${line.id}?at=${encodeURIComponent(line.createdAt)}`,
    );
  }
}

describe('the dashboard home in a browser', () => {
  it('on a 360 × 640 phone in French: a sandbox payment shows with the API’s amounts, the balance in the first screen', async () => {
    const page = await open({ width: 360, height: 640 }, 'fr-CI');
    await page.goto(`${baseUrl}/dashboard/sign-in`);
    await page.getByLabel('Numéro de téléphone').fill(owner.phone);
    await page.getByRole('button', { name: 'Recevoir un code' }).click();
    await page.waitForURL(`${baseUrl}/dashboard/sign-in/code`);
    await page.getByLabel('Code à 6 chiffres').fill(await nextCodeOf(baseUrl, owner.phone, 0));
    await page.getByRole('button', { name: 'Continuer' }).click();
    await page.waitForURL(`${baseUrl}/dashboard/sign-up`);
    await page.getByLabel('Votre prénom').fill('Fatou');
    await page.getByLabel('Votre nom').fill('Diallo');
    await page.getByLabel('Nom de l’entreprise').fill('Épicerie Fatou');
    await page.getByLabel('Activité').selectOption('commerce.boutique');
    await page.getByLabel('Nom de votre premier point de vente').fill('Marcory');
    await page.getByRole('button', { name: 'Créer mon entreprise' }).click();
    await page.waitForURL(`${baseUrl}/dashboard`);
    owner.businessId = (await page.getByTestId('business-name').getAttribute('data-business-id')) ?? '';
    owner.storeId = (await page.getByTestId('store-money').getAttribute('data-store-id')) ?? '';
    await expect(page.getByTestId('available').textContent()).resolves.toBe(formatAmount(0));
    await checkPage(page, 360);

    owner.headers = await apiAccessFor(owner.businessId);
    await sandboxPayment(350_000);
    await page.reload();
    await expectTheApiAmounts(page);
    await expect(page.getByTestId('latest-line').first().textContent()).resolves.toContain(
      'Paiement · Réussi',
    );
    // The money comes first: the store's name and its balance are in the first screen.
    const balance = await page.getByTestId('available').boundingBox();
    expect(balance && balance.y + balance.height).toBeLessThanOrEqual(640);
    // The chart is an image with a name; its figures open as a table.
    await expect(
      page.getByRole('img', { name: /Encaissé par jour, 30 derniers jours : Marcory/ }).count(),
    ).resolves.toBe(1);
    await page.getByText('Voir les chiffres jour par jour').click();
    await expect(page.getByRole('table', { name: /Encaissé par jour/ }).textContent()).resolves.toContain(
      formatAmount(350_000),
    );
    await checkPage(page, 360);
  });

  it('on a 1280 × 800 desktop in English: a second payment, the same agreement with the API', async () => {
    const page = await open({ width: 1280, height: 800 }, 'en-GB');
    const had = (await signInCodesOf(baseUrl, owner.phone)).length;
    await page.goto(`${baseUrl}/dashboard/sign-in`);
    await page.getByLabel('Phone number').fill(owner.phone);
    await page.getByRole('button', { name: 'Get a code' }).click();
    await page.getByLabel('6-digit code').fill(await nextCodeOf(baseUrl, owner.phone, had));
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(`${baseUrl}/dashboard`);
    await sandboxPayment(125_000);
    await page.reload();
    await expectTheApiAmounts(page);
    await expect(page.getByTestId('latest-line').first().textContent()).resolves.toContain(
      'Payment · Succeeded',
    );
    await expect(page.getByTestId('last-days-collected').textContent()).resolves.toBe(formatAmount(475_000));
    await expect(
      page.getByRole('img', { name: /Collected per day, last 30 days: Marcory/ }).count(),
    ).resolves.toBe(1);
    await checkPage(page, 1280);
  });
});
