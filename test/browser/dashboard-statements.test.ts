import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { listStoreWallets } from '#shared/data/wallet.ts';
import { formatAmount } from '#shared/pages/format.ts';
import { screenshotDir } from '#test/support/browser.ts';
import { parseCsv } from '#test/support/csv.ts';
import {
  expectAccessibleWithin,
  expectInFirstScreen,
  phonesOfThisFile,
  shareSession,
  theLocalHost,
  verifiedOwner,
} from '#test/support/dashboard-setup.ts';
import { paidPayment } from '#test/support/paid-payments.ts';
import { bookSmsPurchaseAndWithdrawal } from '#test/support/statement-movements.ts';

/**
 * The month's statement in Chromium, on a 360 × 640 phone in French and a 1280 × 800 desktop in
 * English: reached from the dashboard's links, its opening + movements = closing line matching the
 * wallets, no serious accessibility violation and nothing wider than the screen; on paper (print
 * media, A4's width) the links and the form are gone and nothing overflows; the CSV downloaded as a
 * person does holds the same closing balance.
 */
const { config, baseUrl } = theLocalHost();
const phones = phonesOfThisFile();

beforeAll(async () => {
  await mkdir(screenshotDir, { recursive: true });
});

/** A store paid through the sandbox, with test money, SMS bought and a withdrawal. */
async function ownerWithAMonth(viewport: { width: number; height: number }, locale: string) {
  const owner = await verifiedOwner(baseUrl, { creditCents: 1_000_000 });
  await paidPayment(config, owner.headers, {
    storeId: owner.storeId,
    amountCents: 250_000,
    paymentMethod: 'wave',
    payerPhone: '+2250700000001',
  });
  await bookSmsPurchaseAndWithdrawal(owner.businessId, owner.storeId);
  const page = await phones.open({ viewport, locale });
  await shareSession(page, owner.browser);
  return { ...owner, page };
}

describe.each([
  {
    screen: '360 × 640 phone in French',
    viewport: { width: 360, height: 640 },
    locale: 'fr-CI',
    words: {
      link: 'Relevés',
      show: 'Voir le relevé',
      csv: 'Télécharger le relevé en CSV',
      store: 'Point de vente',
      closing: 'Solde de clôture',
      balance: 'Solde (F CFA)',
      item: 'Libellé',
      withdrawals: 'Retraits',
    },
  },
  {
    screen: '1280 × 800 desktop in English',
    viewport: { width: 1280, height: 800 },
    locale: 'en-GB',
    words: {
      link: 'Statements',
      show: 'Show the statement',
      csv: 'Download the statement as CSV',
      store: 'Store',
      closing: 'Closing balance',
      balance: 'Balance (F CFA)',
      item: 'Item',
      withdrawals: 'Withdrawals',
    },
  },
])('the statement on a $screen', ({ viewport, locale, words }) => {
  it('adds up, prints on A4 and downloads as CSV', async () => {
    const { page, businessId, storeId } = await ownerWithAMonth(viewport, locale);
    const total = (await listStoreWallets(businessId, storeId)).reduce(
      (sum, wallet) => sum + wallet.total,
      0,
    );
    await page.goto(`${baseUrl}/dashboard`);
    await page.getByRole('link', { name: words.link, exact: true }).click();
    await page.waitForURL(`${baseUrl}/dashboard/statements`);
    // The store chosen in the form, the statement shown for it.
    await page.getByLabel(words.store, { exact: true }).selectOption(storeId);
    await page.getByRole('button', { name: words.show }).click();
    await page.waitForURL(/store=/);
    await expect(page.getByTestId('statement-closing').innerText()).resolves.toBe(formatAmount(total));
    await expect(page.getByTestId('statement-check').innerText()).resolves.toContain(formatAmount(total));
    await expect(page.locator('table[data-testid="statement-summary"]').innerText()).resolves.toContain(
      words.withdrawals,
    );
    await expectAccessibleWithin(page, viewport.width);
    await expectInFirstScreen(page.getByRole('button', { name: words.show }), viewport.height);
    await page.screenshot({ path: join(screenshotDir, `dashboard-statement-${locale}.png`), fullPage: true });

    // On paper: the statement alone, within an A4 page's width (210 mm at 96 dpi, less margins).
    await page.emulateMedia({ media: 'print' });
    await expect(page.locator('nav').isVisible()).resolves.toBe(false);
    await expect(page.getByRole('button', { name: words.show }).isVisible()).resolves.toBe(false);
    await expect(page.getByTestId('statement-closing').isVisible()).resolves.toBe(true);
    await page.emulateMedia({ media: 'screen' });
    const pdf = await page.pdf({ format: 'A4', preferCSSPageSize: true });
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: words.csv }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.csv$/);
    const bytes = await readFile((await download.path()) ?? '');
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const { rows } = parseCsv(bytes.subarray(3).toString('utf8'), ';');
    const closing = rows.find((row) => row[words.item] === words.closing);
    expect(Number(closing?.[words.balance]?.replace(',', '.'))).toBe(total / 100);
  });
});
