import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openPhone, type PhoneBrowser, screenshotDir } from '#test/support/browser.ts';

const { config } = inject('localHost');
const { baseUrl } = config;

let browser: PhoneBrowser;
const requested: string[] = [];
const problems: string[] = [];

beforeAll(async () => {
  // A laptop's screen: the reference is read while writing an integration.
  browser = await openPhone({ viewport: { width: 1280, height: 900 }, locale: 'en-GB' });
  browser.page.on('request', (request) => requested.push(request.url()));
  browser.page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  browser.page.on('pageerror', (error) => problems.push(error.message));
  browser.page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
  });
});

afterAll(async () => {
  await browser?.close();
});

describe('the reference page, /docs', () => {
  it('renders every section of the API and the webhooks from the service’s own files', async () => {
    const { page } = browser;
    const response = await page.goto(`${baseUrl}/docs`);
    expect(response?.status()).toBe(200);
    await page.locator('.swagger-ui .info .title').filter({ hasText: 'Partner Payments API' }).waitFor();
    // Every section is drawn, closed (130 operations open at once stop the viewer drawing).
    const sections = await page.locator('.opblock-tag').allTextContents();
    expect(sections).toHaveLength(17);
    // The dashboard's pages are a member's, not the integrators': they are not in the reference.
    expect(sections.some((section) => section.startsWith('Dashboard'))).toBe(false);
    for (const section of [
      'Stores',
      'Withdrawals',
      'Payment requests',
      'Payment links',
      'Transactions',
      'Webhooks',
    ]) {
      await expect(
        page.locator('.opblock-tag').filter({ hasText: section }).first().isVisible(),
      ).resolves.toBe(true);
    }
    // A section opens on a click, and an operation named in the address opens by itself.
    await page.locator('.opblock-tag').filter({ hasText: 'Payment requests' }).first().click();
    await page.locator('#operations-Payment_requests-createPaymentRequest').waitFor();
    await expect(page.getByText('TRANSACTION_COMPLETED').first().isVisible()).resolves.toBe(true);
    // Where the guides are: a stage serves none of the repository's files, so the page names them.
    await expect(page.getByText('docs/README.md').isVisible()).resolves.toBe(true);
    mkdirSync(screenshotDir, { recursive: true });
    await page.screenshot({ path: join(screenshotDir, 'reference-page.png') });
    // Nothing fetched from anywhere else (no CDN, no fonts, no validator badge), and no error.
    const origin = new URL(baseUrl).origin;
    expect(requested.filter((url) => !url.startsWith(origin) && !url.startsWith('data:'))).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('shows an operation’s request, its answers and its error ids when opened', async () => {
    const { page } = browser;
    const operation = page.locator('#operations-Payment_requests-createPaymentRequest');
    await operation.locator('.opblock-summary').click();
    await operation.locator('.responses-table').waitFor();
    const text = await operation.innerText();
    expect(text).toContain('Idempotency-Key');
    expect(text).toContain('commande-2042');
    expect(text).toContain('422');
    expect(text).toContain('payment_request_exists_with_reference');
    expect(problems).toEqual([]);
  });
});
