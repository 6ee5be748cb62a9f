import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { formatAmount } from '#shared/pages/format.ts';
import { apiClient } from '#test/support/api-client.ts';
import {
  apiKeyOf,
  expectAccessibleWithin,
  expectInFirstScreen,
  phonesOfThisFile,
  signInOnPage,
  signUpOnPage,
  theLocalHost,
  verifyFirstLevel,
} from '#test/support/dashboard-setup.ts';
import { paidPayment } from '#test/support/paid-payments.ts';

/**
 * The dashboard's home in Chromium: a shop owner signs up on a small phone in French, a payment is
 * made through the API and paid in the sandbox, and the home page shows it with the amounts the
 * API gives (the store's balance, the list's line), the balance in the first screen; then on a
 * desktop in English, a second payment and the same agreement. Every page: no serious
 * accessibility violation, nothing wider than the screen.
 */
const { config, dataDir, baseUrl } = theLocalHost();
const call = apiClient(baseUrl);
const phones = phonesOfThisFile();
/** The owner the phone's test signs up and gives API access, whom the desktop's test signs in again. */
const owner = { phone: '', businessId: '', storeId: '', headers: {} as Record<string, string> };

const sandboxPayment = (amountCents: number) =>
  paidPayment(config, owner.headers, {
    storeId: owner.storeId,
    amountCents,
    paymentMethod: 'wave',
    payerPhone: '+2250700000001',
  });

/** The home page against the API: the balance, today's collected total and the latest lines. */
async function expectTheApiAmounts(page: Page) {
  const balance = await call('GET', `/partner_api/stores/${owner.storeId}/balance`, owner.headers);
  const list = await call('GET', `/partner_api/transactions?storeId=${owner.storeId}`, owner.headers);
  const lines = list.body.data as { id: string; createdAt: string; amount: { amount: number } }[];
  await expect(page.getByTestId('available').textContent()).resolves.toBe(formatAmount(balance.body.amount));
  const collected = lines.reduce((sum, line) => sum + line.amount.amount, 0);
  await expect(page.getByTestId('today-collected').textContent()).resolves.toBe(formatAmount(collected));
  // The reconciliation (issue 35): collected, fees and the rest add up to the change, and the
  // closing balance is the API's (nothing held or reserved here), for today and the 30 days.
  for (const period of ['today', 'last-days']) {
    const cents = async (testId: string) =>
      Number(await page.getByTestId(testId).first().getAttribute('data-cents'));
    const reconciliation = page.getByTestId(`${period}-reconciliation`).first();
    const lines = await reconciliation
      .locator('[data-testid*="-line-"]')
      .evaluateAll((amounts) => amounts.map((amount) => Number(amount.getAttribute('data-cents'))));
    const change = await cents(`${period}-change`);
    expect(lines.reduce((sum, line) => sum + line, 0)).toBe(change);
    expect((await cents(`${period}-opening`)) + change).toBe(await cents(`${period}-closing`));
    expect(await cents(`${period}-closing`)).toBe(balance.body.amount);
    expect(await cents(`${period}-line-fees`)).toBeLessThan(0);
    await expect(page.getByTestId(`${period}-line-fees`).first().isVisible()).resolves.toBe(true);
  }
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
    const page = await phones.open({ viewport: { width: 360, height: 640 }, locale: 'fr-CI' });
    const signedUp = await signUpOnPage(page, baseUrl, 'fr', {
      firstName: 'Fatou',
      lastName: 'Diallo',
      businessName: 'Épicerie Fatou',
      storeName: 'Marcory',
    });
    owner.phone = signedUp.phone;
    owner.businessId = signedUp.businessId;
    owner.storeId = (await page.getByTestId('store-money').getAttribute('data-store-id')) ?? '';
    await expect(page.getByTestId('available').textContent()).resolves.toBe(formatAmount(0));
    await expectAccessibleWithin(page, 360);

    // What the first verification level opens (the identity check has its own test): a key.
    await verifyFirstLevel(owner.businessId);
    owner.headers = await apiKeyOf(dataDir, owner.businessId);
    await sandboxPayment(350_000);
    await page.reload();
    await expectTheApiAmounts(page);
    await expect(page.getByTestId('latest-line').first().textContent()).resolves.toContain(
      'Paiement · Réussi',
    );
    // The money comes first: the store's name and its balance are in the first screen.
    await expectInFirstScreen(page.getByTestId('available'), 640);
    // The chart is an image with a name; its figures open as a table.
    await expect(
      page.getByRole('img', { name: /Encaissé par jour, 30 derniers jours : Marcory/ }).count(),
    ).resolves.toBe(1);
    await page.getByText('Voir les chiffres jour par jour').click();
    await expect(page.getByRole('table', { name: /Encaissé par jour/ }).textContent()).resolves.toContain(
      formatAmount(350_000),
    );
    await expectAccessibleWithin(page, 360);
  });

  it('on a 1280 × 800 desktop in English: a second payment, the same agreement with the API', async () => {
    const page = await phones.open({ viewport: { width: 1280, height: 800 }, locale: 'en-GB' });
    await page.goto(`${baseUrl}/dashboard/sign-in`);
    await signInOnPage(page, owner.phone, 'en');
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
    await expectAccessibleWithin(page, 1280);
  });
});
