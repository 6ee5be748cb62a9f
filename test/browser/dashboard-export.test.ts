import { randomUUID } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { listStores } from '#shared/data/store.ts';
import type { TransactionRecord } from '#shared/data/transaction-record.ts';
import { screenshotDir } from '#test/support/browser.ts';
import { listedForComparison, parseCsv, rowAsListed } from '#test/support/csv.ts';
import {
  expectAccessibleWithin,
  expectInFirstScreen,
  listedByTheApi,
  phonesOfThisFile,
  shareSession,
  theLocalHost,
  verifiedOwner,
} from '#test/support/dashboard-setup.ts';
import { writeTransactionHistory } from '#test/support/transaction-history.ts';

/**
 * The CSV export in Chromium, on a 360 × 640 phone in French and a 1280 × 800 desktop in English:
 * the form (no serious accessibility violation, the Download button on the first screen, nothing
 * wider than the screen), a window over 90 days refused with the error summary, then the file
 * downloaded as a person does (the browser's download) and compared row for row with the API's
 * list of the same window.
 */
const { baseUrl } = theLocalHost();
const dayMs = 24 * 60 * 60 * 1000;
const dayOf = (time: number) => new Date(time).toISOString().slice(0, 10);
const phones = phonesOfThisFile();

beforeAll(async () => {
  await mkdir(screenshotDir, { recursive: true });
});

/** 150 lines over the 10 days before today, in the business's one store. */
async function historyOf(businessId: string) {
  const [store] = await listStores(businessId);
  const now = Date.now();
  await writeTransactionHistory(
    Array.from(
      { length: 150 },
      (_, i): TransactionRecord => ({
        id: randomUUID(),
        businessId,
        storeId: store?.id ?? '',
        type: i % 5 === 0 ? 'refund' : 'payment',
        status: i % 4 === 0 ? 'pending' : 'success',
        amount: { amount: 250_000 + i * 50, currency: 'XOF' },
        fees: { amount: 2_500, currency: 'XOF' },
        currency: 'XOF',
        paymentMethod: 'wave',
        counterpartLabel: 'Adjoua Kouassi',
        counterpartIdentifier: '+2250700000002',
        description: `Épicerie « Chez Adjoua », lot ${i}, "frais"`,
        reference: `vente-${i}`,
        createdAt: new Date(now - dayMs - Math.floor((i * 9 * dayMs) / 150)).toISOString(),
      }),
    ),
  );
}

/** A verified owner with that history, signed in in Chromium, and their key to list it through the API. */
async function ownerWithHistory(viewport: { width: number; height: number }, locale: string) {
  const owner = await verifiedOwner(baseUrl);
  await historyOf(owner.businessId);
  const page = await phones.open({ viewport, locale });
  await shareSession(page, owner.browser);
  return { page, headers: owner.headers };
}

describe.each([
  {
    screen: '360 × 640 phone in French',
    viewport: { width: 360, height: 640 },
    locale: 'fr-CI',
    words: { from: 'Du', to: 'Au', download: 'Télécharger', tooLong: 'La période dépasse 90 jours' },
  },
  {
    screen: '1280 × 800 desktop in English',
    viewport: { width: 1280, height: 800 },
    locale: 'en-GB',
    words: { from: 'From', to: 'To', download: 'Download', tooLong: 'The period is over 90 days' },
  },
])('the CSV export on a $screen', ({ viewport, locale, words }) => {
  it('downloads the window the API lists, row for row', async () => {
    const { page, headers } = await ownerWithHistory(viewport, locale);
    await page.goto(`${baseUrl}/dashboard/transactions/export`);
    await expectAccessibleWithin(page, viewport.width);
    await page.screenshot({ path: join(screenshotDir, `dashboard-export-${locale}.png`) });
    const button = page.getByRole('button', { name: words.download });
    await expectInFirstScreen(button, viewport.height);

    // A window over 90 days: the form again with the error summary, and no file.
    await page.getByLabel(words.from, { exact: true }).fill('2026-01-01');
    await page.getByLabel(words.to, { exact: true }).fill('2026-06-30');
    await button.click();
    await expect.poll(() => page.locator('[role="alert"]').textContent()).toContain(words.tooLong);
    await expectAccessibleWithin(page, viewport.width);

    const from = dayOf(Date.now() - 30 * dayMs);
    const to = dayOf(Date.now());
    await page.getByLabel(words.from, { exact: true }).fill(from);
    await page.getByLabel(words.to, { exact: true }).fill(to);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: words.download }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`transactions-${from}-${to}.csv`);
    const bytes = await readFile((await download.path()) ?? '');
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const { rows } = parseCsv(bytes.subarray(3).toString('utf8'));
    const listed = await listedByTheApi(baseUrl, headers, `startDate=${from}&endDate=${to}`);
    expect(listed).toHaveLength(150);
    expect(rows.map(rowAsListed)).toEqual(listed.map(listedForComparison));
    expect(rows[0]?.description).toMatch(/^Épicerie « Chez Adjoua », lot \d+, "frais"$/);
  });
});
