import { randomUUID } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { useLocalAws } from '#infra/local/local-config.ts';
import type { TransactionRecord } from '#shared/data/transaction-record.ts';
import { seriousAxeViolations } from '#test/support/accessibility.ts';
import { openPhone, type PhoneBrowser, screenshotDir } from '#test/support/browser.ts';
import { type ListedTransaction, listedForComparison, parseCsv, rowAsListed } from '#test/support/csv.ts';
import { signUpOwner } from '#test/support/dashboard.ts';

/**
 * The CSV export in Chromium, on a 360 × 640 phone in French and a 1280 × 800 desktop in English:
 * the form (no serious accessibility violation, the Download button on the first screen, nothing
 * wider than the screen), a window over 90 days refused with the error summary, then the file
 * downloaded as a person does (the browser's download) and compared row for row with the API's
 * list of the same window.
 */
const { config } = inject('localHost');
const baseUrl = config.baseUrl;
const dayMs = 24 * 60 * 60 * 1000;
const dayOf = (time: number) => new Date(time).toISOString().slice(0, 10);
const opened: PhoneBrowser[] = [];

beforeAll(async () => {
  useLocalAws(config.endpoints, config.tableName);
  await mkdir(screenshotDir, { recursive: true });
});
afterAll(async () => {
  await Promise.all(opened.map((browser) => browser.close()));
});

/** A signed-up owner with 150 lines over the last 10 days and an API key, signed in in Chromium. */
async function ownerWithHistory(viewport: { width: number; height: number }, locale: string) {
  const owner = await signUpOwner(baseUrl);
  const { listStores } = await import('#shared/data/store.ts');
  const { writeTransactionHistory } = await import('#test/support/transaction-history.ts');
  const { documentClient, tableName } = await import('#shared/aws/dynamodb.ts');
  const { UpdateCommand } = await import('@aws-sdk/lib-dynamodb');
  const [store] = await listStores(owner.businessId);
  const now = Date.now();
  await writeTransactionHistory(
    Array.from(
      { length: 150 },
      (_, i): TransactionRecord => ({
        id: randomUUID(),
        businessId: owner.businessId,
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
  const csrf = await owner.browser.csrfOf('/dashboard/api-keys');
  const made = await owner.browser.post('/dashboard/api-keys', { csrf, name: 'Export', kind: 'merchant' });
  const key = {
    keyId: /id="key-id" name="key-id" value="([^"]+)"/.exec(made.text)?.[1] ?? '',
    secret: /id="key-secret" name="key-secret" value="([^"]+)"/.exec(made.text)?.[1] ?? '',
  };
  await documentClient.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: { pk: `BIZ#${owner.businessId}`, sk: 'PROFILE' },
      UpdateExpression: 'SET apiAccessEnabled = :on, verificationLevel = :one',
      ExpressionAttributeValues: { ':on': true, ':one': 1 },
    }),
  );
  const browser = await openPhone({ viewport, locale });
  opened.push(browser);
  await browser.context.addCookies(
    [...owner.browser.cookies].map(([name, value]) => ({ name, value, url: baseUrl })),
  );
  await new Promise((resolve) => setTimeout(resolve, 2100)); // the local host caches a business 2 s
  return { page: browser.page, key };
}

async function apiList(key: { keyId: string; secret: string }, from: string, to: string) {
  const items: ListedTransaction[] = [];
  let asOf = '';
  for (let page = 1; ; page++) {
    const response = await fetch(
      `${baseUrl}/partner_api/transactions?startDate=${from}&endDate=${to}&limit=100&page=${page}${asOf ? `&asOf=${asOf}` : ''}`,
      { headers: { 'X-API-KEY-ID': key.keyId, 'X-API-KEY': key.secret } },
    );
    const body = (await response.json()) as { data: ListedTransaction[]; total: number; asOf: string };
    asOf = body.asOf;
    items.push(...body.data);
    if (items.length >= body.total || body.data.length === 0) return items;
  }
}

async function checkPage(page: Page, viewport: { width: number; height: number }) {
  expect(await seriousAxeViolations(page)).toEqual([]);
  expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(
    viewport.width,
  );
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
    const { page, key } = await ownerWithHistory(viewport, locale);
    await page.goto(`${baseUrl}/dashboard/transactions/export`);
    await checkPage(page, viewport);
    await page.screenshot({ path: join(screenshotDir, `dashboard-export-${locale}.png`) });
    const button = page.getByRole('button', { name: words.download });
    const box = await button.boundingBox();
    expect((box?.y ?? viewport.height) + (box?.height ?? 0)).toBeLessThanOrEqual(viewport.height);

    // A window over 90 days: the form again with the error summary, and no file.
    await page.getByLabel(words.from, { exact: true }).fill('2026-01-01');
    await page.getByLabel(words.to, { exact: true }).fill('2026-06-30');
    await button.click();
    await expect.poll(() => page.locator('[role="alert"]').textContent()).toContain(words.tooLong);
    await checkPage(page, viewport);

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
    const listed = await apiList(key, from, to);
    expect(listed).toHaveLength(150);
    expect(rows.map(rowAsListed)).toEqual(listed.map(listedForComparison));
    expect(rows[0]?.description).toMatch(/^Épicerie « Chez Adjoua », lot \d+, "frais"$/);
  });
});
