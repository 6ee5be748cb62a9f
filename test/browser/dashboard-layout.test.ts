import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '#test/support/api-client.ts';
import type { DashboardBrowser } from '#test/support/dashboard.ts';
import {
  elementsPast,
  expectAccessibleWithin,
  memberOf,
  phonesOfThisFile,
  shareSession,
  theLocalHost,
  type VerifiedOwner,
  verifiedOwner,
} from '#test/support/dashboard-setup.ts';
import { paidPayment } from '#test/support/paid-payments.ts';

/**
 * The dashboard's layout in Chromium (issue 35): on a 360 × 640 phone no amount, label or id is
 * broken inside itself on any page; on a 1280 × 800 desktop the transactions are a table with
 * column headers; every page opens with a skip link; a viewer's refusal and a 404 are the
 * dashboard's pages, in its words, with its navigation.
 */
const { config, baseUrl } = theLocalHost();
const call = apiClient(baseUrl);
const phones = phonesOfThisFile();
let owner: VerifiedOwner;
let viewer: DashboardBrowser;
/** Every page of the business the owner can open, with data on it (a payment, a link, a key). */
let paths: string[];

beforeAll(async () => {
  owner = await verifiedOwner(baseUrl, { creditCents: 12_345_600 });
  await paidPayment(config, owner.headers, {
    storeId: owner.storeId,
    amountCents: 20_000_000,
    paymentMethod: 'wave',
    payerPhone: '+2250700000001',
  });
  const link = await call('POST', '/partner_api/payment_links', owner.headers, {
    storeId: owner.storeId,
    title: 'Deux pagnes wax, livraison à Cocody',
    amountCents: 1_500_000,
    currency: 'XOF',
    allowMultiplePayments: true,
  });
  expect(link.status, JSON.stringify(link.body)).toBe(200);
  viewer = await memberOf(owner, 'viewer');
  const transactions = await owner.browser.get('/dashboard/transactions');
  const detail = /data-transaction-id="[^"]+"[\s\S]*?<a href="([^"]+)"/.exec(transactions.text)?.[1] ?? '';
  expect(detail).not.toBe('');
  paths = [
    '/dashboard',
    '/dashboard/transactions',
    new URL(detail.replaceAll('&amp;', '&')).pathname + new URL(detail.replaceAll('&amp;', '&')).search,
    '/dashboard/statements',
    '/dashboard/payment-links',
    `/dashboard/payment-links/${link.body.id}`,
    '/dashboard/payment-links/new',
    '/dashboard/payment-requests',
    '/dashboard/transfers',
    '/dashboard/withdrawals',
    '/dashboard/escrows',
    '/dashboard/soundboxes',
    '/dashboard/sms',
    '/dashboard/team',
    '/dashboard/api-keys',
    '/dashboard/webhooks',
    '/dashboard/audit',
  ];
}, 240_000);

/**
 * The values in the page's key–value lists and tables (each text of a `dd`, `td`, `dt`, `th`) that
 * are not on one line: a word, an amount (its parts joined by no-break spaces) or an id whose
 * characters are laid out on more than one line box. Words may wrap between them; never inside.
 */
const brokenValues = (page: Page) =>
  page.evaluate<string[]>(`(() => {
    const broken = [];
    const lines = (range) => new Set([...range.getClientRects()].filter((r) => r.width > 0.5).map((r) => Math.round(r.top))).size;
    for (const cell of document.querySelectorAll('main dd, main dt, main td, main th')) {
      const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent;
        for (const match of text.matchAll(/[^ \\t\\n\\r]+/g)) {
          const range = document.createRange();
          range.setStart(node, match.index);
          range.setEnd(node, match.index + match[0].length);
          if (lines(range) > 1) broken.push(match[0] + ' (in <' + cell.tagName.toLowerCase() + '>)');
        }
      }
    }
    return broken;
  })()`);

/** The page's main content's height: 20 audit entries once took 6,900 px. */
const mainHeight = (page: Page) =>
  page.evaluate<number>('document.querySelector("main").getBoundingClientRect().height');

describe('the dashboard’s layout', () => {
  it('on a 360 × 640 phone: no amount, label or id broken inside itself, on any page', async () => {
    const page = await phones.open({ viewport: { width: 360, height: 640 }, locale: 'fr-CI' });
    await shareSession(page, owner.browser);
    const found: Record<string, string[]> = {};
    for (const path of paths) {
      const answer = await page.goto(`${baseUrl}${path}`);
      const broken = answer?.status() === 200 ? await brokenValues(page) : [`answered ${answer?.status()}`];
      // Nor is anything wider than the screen: an id cut short stays within it.
      const width = await page.evaluate<number>('document.documentElement.scrollWidth');
      if (width > 360) broken.push(`${width} px wide: ${(await elementsPast(page, 360)).join(' ')}`);
      if (broken.length > 0) found[path] = broken;
    }
    expect(found).toEqual({});
    await page.goto(`${baseUrl}/dashboard/audit`);
    expect(await mainHeight(page)).toBeLessThan(4_000);
  });

  it('on a 1280 × 800 desktop: the transactions are a table with column headers, the navigation a side bar', async () => {
    const page = await phones.open({ viewport: { width: 1280, height: 800 }, locale: 'en-GB' });
    await shareSession(page, owner.browser);
    await page.goto(`${baseUrl}/dashboard/transactions`);
    const table = page.getByRole('table', { name: 'Transactions list' });
    await expect(table.count()).resolves.toBe(1);
    const headers = await table.getByRole('columnheader').allTextContents();
    expect(headers).toEqual(expect.arrayContaining(['Amount', 'Type', 'Status', 'Date']));
    // The headers are shown, in one row, side by side.
    const tops = await table
      .getByRole('columnheader')
      .evaluateAll((cells) => cells.map((cell) => Math.round(cell.getBoundingClientRect().top)));
    expect(new Set(tops).size).toBe(1);
    expect(await table.locator('tbody tr').count()).toBeGreaterThanOrEqual(1);
    // The page is no phone column, and the navigation stands beside it.
    const main = await page.locator('main').boundingBox();
    const nav = await page.locator('#dashboard-nav').boundingBox();
    expect(main?.width ?? 0).toBeGreaterThan(700);
    expect((nav?.x ?? 0) + (nav?.width ?? 0)).toBeLessThanOrEqual(main?.x ?? 0);
    expect(nav?.y ?? 1_000).toBeLessThan(200);
    await expectAccessibleWithin(page, 1280);
  });

  it('opens every page with a skip link to the content, the first thing Tab reaches', async () => {
    const page = await phones.open({ viewport: { width: 360, height: 640 }, locale: 'fr-CI' });
    await shareSession(page, owner.browser);
    for (const path of paths) {
      await page.goto(`${baseUrl}${path}`);
      await page.keyboard.press('Tab');
      const focused = await page.evaluate<{ text: string; href: string }>(
        '({ text: document.activeElement.textContent.trim(), href: document.activeElement.getAttribute("href") })',
      );
      expect(focused, path).toEqual({ text: 'Aller au contenu', href: '#main-content' });
    }
    await page.keyboard.press('Enter');
    await expect(page.evaluate<string>('location.hash')).resolves.toBe('#main-content');
    // On a phone the page starts with its own content: the sections are one "Menu" link away.
    await expect(page.locator('header a').allTextContents()).resolves.toEqual(['Tableau de bord', 'Menu']);
    await expectAccessibleWithin(page, 360);
  });

  it('refuses a viewer in the dashboard’s words, with the navigation its role opens and a way back', async () => {
    const page = await phones.open({ viewport: { width: 360, height: 640 }, locale: 'fr-CI' });
    await shareSession(page, viewer);
    const answer = await page.goto(`${baseUrl}/dashboard/payment-links/new`);
    expect(answer?.status()).toBe(403);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
      'Vous n’avez pas accès à cette action',
    );
    await expect(page.content()).resolves.not.toContain('Demande invalide');
    const nav = page.getByRole('navigation', { name: 'Sections du tableau de bord' });
    await expect(nav.getByRole('link', { name: 'Transactions' }).count()).resolves.toBe(1);
    // A viewer does not read the activity log: the navigation does not offer it.
    await expect(nav.getByRole('link', { name: 'Journal d’activité' }).count()).resolves.toBe(0);
    await expect(
      page.getByRole('link', { name: 'Retour à l’accueil du tableau de bord' }).getAttribute('href'),
    ).resolves.toBe(`${baseUrl}/dashboard`);
    await expectAccessibleWithin(page, 360);
  });

  it('answers a dashboard page that does not exist in the dashboard’s words, with its navigation', async () => {
    const page = await phones.open({ viewport: { width: 360, height: 640 }, locale: 'en-GB' });
    await shareSession(page, owner.browser);
    const answer = await page.goto(`${baseUrl}/dashboard/payment-links/${crypto.randomUUID()}`);
    expect(answer?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Page not found');
    const nav = page.getByRole('navigation', { name: 'Dashboard sections' });
    await expect(nav.getByRole('link', { name: 'Activity log' }).count()).resolves.toBe(1);
    await expect(page.getByRole('link', { name: 'Back to the dashboard’s home' }).count()).resolves.toBe(1);
    await expectAccessibleWithin(page, 360);
  });
});
