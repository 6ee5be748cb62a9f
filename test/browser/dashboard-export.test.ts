import { randomUUID } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { documentClient, tableName } from '#shared/aws/dynamodb.ts';
import { listStores } from '#shared/data/store.ts';
import type { TransactionRecord } from '#shared/data/transaction-record.ts';
import { screenshotDir } from '#test/support/browser.ts';
import {
  cellText,
  exportHeaders,
  type FileLanguage,
  listedForComparison,
  parseCsv,
  rowAsListed,
  signedAmount,
} from '#test/support/csv.ts';
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
 * list of the same window. The file is the spreadsheet's of the page's language (issue 35, item 3):
 * in French `;` (chosen on the form) and French headers, in English `,`; a refund below zero, a
 * Senegalese phone kept whole as text, what was sold (a payment link's title) in its column.
 */
const { baseUrl } = theLocalHost();
const dayMs = 24 * 60 * 60 * 1000;
const dayOf = (time: number) => new Date(time).toISOString().slice(0, 10);
const phones = phonesOfThisFile();

beforeAll(async () => {
  await mkdir(screenshotDir, { recursive: true });
});

const linkTitle = 'Thiéboudienne, 2 parts';

/** 150 lines over the 10 days before today, in the business's one store; a tenth through a link. */
async function historyOf(businessId: string) {
  const [store] = await listStores(businessId);
  const now = Date.now();
  const linkId = randomUUID();
  await documentClient.send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        pk: `BIZ#${businessId}`,
        sk: `PLINK#${linkId}`,
        entity: 'payment_link',
        id: linkId,
        title: linkTitle,
      },
    }),
  );
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
        counterpartIdentifier: '+221770000001',
        description: i % 10 === 3 ? `Payment pl-${i}` : `Épicerie « Chez Adjoua », lot ${i}, "frais"`,
        reference: `vente-${i}`,
        ...(i % 10 === 3 ? { transactionDetails: { paymentLinkId: linkId } } : {}),
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
    language: 'fr' as FileLanguage,
    delimiter: ';' as const,
    words: {
      from: 'Du',
      to: 'Au',
      download: 'Télécharger',
      tooLong: 'La période dépasse 90 jours',
      separator: 'Point-virgule (;)',
      refund: 'Remboursement',
    },
  },
  {
    screen: '1280 × 800 desktop in English',
    viewport: { width: 1280, height: 800 },
    locale: 'en-GB',
    language: 'en' as FileLanguage,
    delimiter: ',' as const,
    words: {
      from: 'From',
      to: 'To',
      download: 'Download',
      tooLong: 'The period is over 90 days',
      separator: 'Comma (,)',
      refund: 'Refund',
    },
  },
])('the CSV export on a $screen', ({ viewport, locale, language, delimiter, words }) => {
  it('downloads the window the API lists, row for row', async () => {
    const { page, headers } = await ownerWithHistory(viewport, locale);
    await page.goto(`${baseUrl}/dashboard/transactions/export`);
    await expectAccessibleWithin(page, viewport.width);
    await page.screenshot({ path: join(screenshotDir, `dashboard-export-${locale}.png`) });
    const button = page.getByRole('button', { name: words.download });
    await expectInFirstScreen(button, viewport.height);
    // The separator of the page's language is the one chosen; no script needed to choose it.
    expect(await page.getByLabel(words.separator).isChecked()).toBe(true);

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
    const text = bytes.subarray(3).toString('utf8');
    const h = exportHeaders[language];
    // The separator of the page's language, and the headers in its words.
    expect(text.slice(0, text.indexOf('\r\n'))).toBe(Object.values(h).join(delimiter));
    const { rows } = parseCsv(text, delimiter);
    const listed = await listedByTheApi(baseUrl, headers, `startDate=${from}&endDate=${to}`);
    expect(listed).toHaveLength(150);
    // What was sold: the link's title for a payment through it, else the description.
    const expected = listed.map((item) => ({
      ...listedForComparison(item),
      ...(item.transactionDetails?.paymentLinkId ? { description: linkTitle } : {}),
    }));
    expect(rows.map((row) => rowAsListed(row, language, delimiter))).toEqual(expected);
    expect(rows.filter((row) => row[h.item] === linkTitle)).toHaveLength(15);
    expect(rows.some((row) => /^Épicerie « Chez Adjoua », lot \d+, "frais"$/.test(row[h.item] ?? ''))).toBe(
      true,
    );
    // A refund is money out, below zero; a payment above.
    const refunds = rows.filter((row) => row[h.type] === words.refund);
    expect(refunds).toHaveLength(30);
    expect(refunds.every((row) => signedAmount(row, language, delimiter) < 0)).toBe(true);
    expect(rows.filter((row) => signedAmount(row, language, delimiter) > 0)).toHaveLength(120);
    // The Senegalese number whole, as text (after a tab), never 2,2177E+11.
    expect(rows.every((row) => row[h.number] === '\t+221770000001')).toBe(true);
    expect(cellText(rows[0]?.[h.number])).toBe('+221770000001');
  });
});
