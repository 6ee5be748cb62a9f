import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { demoApi } from '#test/support/api-client.ts';
import { type PhoneOptions, phoneRack, screenshotDir } from '#test/support/browser.ts';
import { backgroundWorkMs } from '#test/support/dashboard.ts';
import { admin } from '#test/support/local-host.ts';

const { config, dataDir } = inject('localHost');
const api = demoApi(config);
const inboxUrl = `${config.baseUrl}/__local/sms`;

/** A number of this run's own (any number but the sandbox's test numbers is delivered). */
const number = `+22505${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
const texts = ['Votre commande 42 est prête.', 'Reçu : 1 500 F CFA payés <b>merci</b>'];

const phones = phoneRack();
const browser = (options?: PhoneOptions) =>
  phones.open({ viewport: { width: 1024, height: 800 }, ...options });

beforeAll(async () => {
  mkdirSync(screenshotDir, { recursive: true });
  await admin(dataDir, 'credit-sms', '--business', config.demo.businessId, '--segments', '10');
  for (const body of texts) {
    const { status } = await api('POST', '/partner_api/messages', {
      channel: 'sms',
      to: number,
      body,
      reference: `inbox-${Math.random()}`,
    });
    expect(status).toBe(200);
  }
});

afterAll(phones.closeAll);

/** The texts of the number's inbox, top to bottom, once both have arrived (the page reloaded until then). */
async function inboxOf(page: Page): Promise<string[]> {
  const phone = page.locator(`section.phone[data-number="${number}"]`);
  await expect
    .poll(
      async () => {
        await page.reload();
        return phone.locator('li.sms').count();
      },
      { timeout: backgroundWorkMs, message: `the inbox of ${number} did not receive both texts` },
    )
    .toBeGreaterThanOrEqual(texts.length);
  return phone
    .locator('li.sms')
    .evaluateAll((items) => items.map((item) => item.firstChild?.textContent ?? ''));
}

describe('the local SMS inbox page', () => {
  it('shows each number’s texts, newest first, in French by default', async () => {
    const page = await browser({ locale: 'fr-CI' });
    await page.goto(inboxUrl);
    expect(await inboxOf(page)).toEqual([...texts].reverse());
    await expect(page.locator('h1').textContent()).resolves.toBe('Téléphones du bac à sable SMS');
    await expect(page.locator('html').getAttribute('lang')).resolves.toBe('fr');
    // The merchant's markup is shown as text, never run as HTML.
    await expect(page.locator(`section.phone[data-number="${number}"] b`).count()).resolves.toBe(0);
    await page.screenshot({ path: join(screenshotDir, 'sms-inbox-fr.png'), fullPage: true });
  });

  it('speaks English to a browser that prefers it, and switches language with its link', async () => {
    const page = await browser({ locale: 'en-US' });
    await page.goto(inboxUrl);
    await expect(page.locator('h1').textContent()).resolves.toBe('Sandbox SMS phones');
    expect(await inboxOf(page)).toEqual([...texts].reverse());
    await page.getByRole('link', { name: 'Français' }).click();
    await expect(page.locator('h1').textContent()).resolves.toBe('Téléphones du bac à sable SMS');
    await page.screenshot({ path: join(screenshotDir, 'sms-inbox-en.png'), fullPage: true });
  });
});
