import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { formatAmount } from '#shared/pages/format.ts';
import { apiClient, type Body } from '#test/support/api-client.ts';
import type { DashboardBrowser } from '#test/support/dashboard.ts';
import {
  expectAccessibleWithin,
  expectInFirstScreen,
  memberOf,
  phonesOfThisFile,
  shareSession,
  theLocalHost,
  type VerifiedOwner,
  verifiedOwner,
} from '#test/support/dashboard-setup.ts';
import { paidPayment } from '#test/support/paid-payments.ts';

/**
 * A sandbox payment on the dashboard, in Chromium: it appears in the list with the amounts the API
 * gives; part of it is refunded from its page, after a confirmation that shows the fee; then the
 * balance and the list of the API and the dashboard's list agree. A viewer sees no refund button.
 * On a 360 × 640 phone in French and on a 1280 × 800 screen in English; every page with no serious
 * accessibility violation and nothing wider than the screen.
 */
const { config, baseUrl } = theLocalHost();
const call = apiClient(baseUrl);
const phones = phonesOfThisFile();

/** A verified business with some balance besides its payments: its refunds are paid out of it. */
const newShop = () => verifiedOwner(baseUrl, { creditCents: 1_000_000 });

/** A Chromium page signed in as the dashboard browser's session. */
async function open(
  signedIn: DashboardBrowser,
  viewport: { width: number; height: number },
  locale: string,
): Promise<Page> {
  const page = await phones.open({ viewport, locale });
  await shareSession(page, signedIn);
  return page;
}

const words = {
  fr: {
    amount: 'Montant à rembourser (F CFA)',
    continue: 'Continuer',
    confirm: (amount: string) => `Rembourser ${amount}`,
    title: 'Confirmer le remboursement',
    refundType: 'Remboursement',
  },
  en: {
    amount: 'Amount to refund (F CFA)',
    continue: 'Continue',
    confirm: (amount: string) => `Refund ${amount}`,
    title: 'Confirm the refund',
    refundType: 'Refund',
  },
};

async function refundPartFromItsPage(
  shop: VerifiedOwner,
  viewport: { width: number; height: number },
  language: 'fr' | 'en',
) {
  const t = words[language];
  const paymentId = await paidPayment(config, shop.headers, {
    storeId: shop.storeId,
    amountCents: 250_000,
    paymentMethod: 'orange',
    payerPhone: '+2250700000017',
  });
  const lines = (await call('GET', `/partner_api/transactions?storeId=${shop.storeId}`, shop.headers)).body
    .data as Body[];
  const line = lines.find((item) => item.paymentRequestId === paymentId) as Body;

  const page = await open(shop.browser, viewport, language === 'fr' ? 'fr-CI' : 'en-GB');
  await page.goto(`${baseUrl}/dashboard/transactions`);
  await expectAccessibleWithin(page, viewport.width);
  const row = page.locator(`[data-transaction-id="${line.id}"]`);
  await expect(row.getByTestId('row-amount').textContent()).resolves.toBe(formatAmount(line.amount.amount));

  await row.getByRole('link').click();
  await page.getByLabel(t.amount).waitFor();
  await expectAccessibleWithin(page, viewport.width);
  await expect(page.getByTestId('amount').textContent()).resolves.toBe(formatAmount(250_000));
  await expect(page.getByTestId('fees').textContent()).resolves.toBe(formatAmount(line.fees.amount));
  // The refund starts from an empty amount, in a section below the payment's details.
  const button = page.getByRole('button', { name: t.continue });
  await expect(page.getByLabel(t.amount).inputValue()).resolves.toBe('');
  const fees = await page.getByTestId('fees').boundingBox();
  const field = await page.getByLabel(t.amount).boundingBox();
  expect(field?.y ?? 0).toBeGreaterThan(fees?.y ?? Number.POSITIVE_INFINITY);

  const before = (await call('GET', `/partner_api/stores/${shop.storeId}/balance`, shop.headers)).body.amount;
  await page.getByLabel(t.amount).fill('600');
  await button.click();
  await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(t.title);
  await expectAccessibleWithin(page, viewport.width);
  await expect(page.getByTestId('confirm-amount').textContent()).resolves.toBe(formatAmount(60_000));
  const fee = await page.getByTestId('confirm-fee').textContent();
  const confirm = page.getByRole('button', { name: t.confirm(formatAmount(60_000)) });
  await expectInFirstScreen(confirm, viewport.height);
  await confirm.click();
  await page.locator('[data-testid="refund"]').waitFor();

  const refunds = (await call('GET', `/partner_api/refunds?paymentRequestId=${paymentId}`, shop.headers))
    .body;
  expect(refunds.total).toBe(1);
  const refund = refunds.data[0];
  expect(refund.amount.amount).toBe(60_000);
  expect(fee).toBe(formatAmount(refund.fees.amount));
  const after = (await call('GET', `/partner_api/stores/${shop.storeId}/balance`, shop.headers)).body.amount;
  expect(after).toBe(before - 60_000 - refund.fees.amount);

  const afterLines = (await call('GET', `/partner_api/transactions?storeId=${shop.storeId}`, shop.headers))
    .body.data as Body[];
  const refundLine = afterLines.find((item) => item.refundId === refund.id) as Body;
  await page.goto(`${baseUrl}/dashboard/transactions`);
  const shown = await page
    .locator('[data-transaction-id]')
    .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-transaction-id')));
  expect(shown).toEqual(afterLines.map((item) => item.id));
  const refundRow = page.locator(`[data-transaction-id="${refundLine.id}"]`);
  await expect(refundRow.getByTestId('row-amount').textContent()).resolves.toBe(formatAmount(60_000));
  await expect(refundRow.textContent()).resolves.toContain(t.refundType);
  return paymentId;
}

/** A viewer of the business opens the payment's page: its amounts, and no refund's field or button. */
async function viewerSeesNoRefund(
  shop: VerifiedOwner,
  paymentId: string,
  viewport: { width: number; height: number },
  language: 'fr' | 'en',
) {
  const viewer = await memberOf(shop, 'viewer');
  const page = await open(viewer, viewport, language === 'fr' ? 'fr-CI' : 'en-GB');
  await page.goto(`${baseUrl}/dashboard/transactions/${paymentId}`);
  await page.getByTestId('amount').waitFor();
  await expectAccessibleWithin(page, viewport.width);
  await expect(page.getByLabel(words[language].amount).count()).resolves.toBe(0);
  await expect(page.getByRole('button', { name: words[language].continue }).count()).resolves.toBe(0);
}

const phone = { width: 360, height: 640 };
const desktop = { width: 1280, height: 800 };

describe('transactions on the dashboard', () => {
  it('on a 360 × 640 phone in French: a payment listed as the API gives it, part of it refunded, the viewer without the button', async () => {
    const shop = await newShop();
    const paymentId = await refundPartFromItsPage(shop, phone, 'fr');
    await viewerSeesNoRefund(shop, paymentId, phone, 'fr');
  });

  it('on a 1280 × 800 screen in English: the same', async () => {
    const shop = await newShop();
    const paymentId = await refundPartFromItsPage(shop, desktop, 'en');
    await viewerSeesNoRefund(shop, paymentId, desktop, 'en');
  });
});
