import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { DeviceProvisioning } from '#infra/admin-device.ts';
import { useLocalAws } from '#infra/local/local-config.ts';
import { formatAmount } from '#shared/pages/format.ts';
import { seriousAxeViolations } from '#test/support/accessibility.ts';
import { apiClient, type Body } from '#test/support/api-client.ts';
import { openPhone, type PhoneBrowser } from '#test/support/browser.ts';
import { nextCodeOf, signInCodesOf, signUpOwner } from '#test/support/dashboard.ts';
import { grantApiAccess, platformKeyOf } from '#test/support/dashboard-business.ts';
import { admin } from '#test/support/local-host.ts';

/**
 * A shop owner releases an escrow from the dashboard, in Chromium: on a 360 × 640 phone in French
 * and on a 1280 × 800 desktop in English, an escrow held through the API is on the escrows page,
 * its release button on the first screen, released after the confirmation that shows the amount;
 * the API then shows it released. The soundboxes page lists a provisioned device. Every page: no
 * serious accessibility violation, nothing wider than the screen.
 */
const { config, dataDir } = inject('localHost');
const baseUrl = config.baseUrl;
const call = apiClient(baseUrl);
const opened: PhoneBrowser[] = [];
let owner: { phone: string; businessId: string };
let platform: Record<string, string>;
let storeId: string;
let deviceId: string;

beforeAll(async () => {
  useLocalAws(config.endpoints, config.tableName);
  const signedUp = await signUpOwner(baseUrl);
  owner = { phone: signedUp.phone, businessId: signedUp.businessId };
  await grantApiAccess(owner.businessId);
  platform = await platformKeyOf(dataDir, owner.businessId);
  await new Promise((resolve) => setTimeout(resolve, 2100)); // the host caches a business 2 s
  storeId = ((await call('GET', '/partner_api/stores', platform)).body as Body[])[0].id;
  deviceId = (
    await admin<DeviceProvisioning>(
      dataDir,
      'create-device',
      '--store',
      storeId,
      '--device-id',
      `Till-${randomUUID().slice(0, 8)}`,
    )
  ).deviceId;
});
afterAll(async () => {
  await Promise.all(opened.map((browser) => browser.close()));
});

async function heldEscrow(amountCents: number): Promise<string> {
  const created = await call('POST', '/partner_api/payment_requests', platform, {
    storeId,
    amountCents,
    currency: 'XOF',
    reference: `order-${randomUUID()}`,
    escrow: { holdDays: 3 },
    paymentDetails: {
      type: 'redirect',
      data: {
        paymentMethod: 'wave',
        successUrl: 'https://shop.example/ok',
        errorUrl: 'https://shop.example/ko',
      },
    },
  });
  expect(created.status).toBe(200);
  const approved = await call('POST', `/sandbox/payment_requests/${created.body.id}/approve`, platform, {
    payerPhone: '+2250700000001',
  });
  expect(approved.body.status).toBe('success');
  return created.body.escrowId as string;
}

const escrowOf = async (id: string): Promise<Body> =>
  ((await call('GET', '/partner_api/escrows', platform)).body as Body[]).find((escrow) => escrow.id === id);

async function signedIn(
  viewport: { width: number; height: number },
  locale: string,
  words: { phone: string; send: string; code: string; go: string },
): Promise<Page> {
  const browser = await openPhone({ viewport, locale });
  opened.push(browser);
  const { page } = browser;
  const had = (await signInCodesOf(baseUrl, owner.phone)).length;
  await page.goto(`${baseUrl}/dashboard/sign-in`);
  await page.getByLabel(words.phone).fill(owner.phone);
  await page.getByRole('button', { name: words.send }).click();
  await page.getByLabel(words.code).fill(await nextCodeOf(baseUrl, owner.phone, had));
  await page.getByRole('button', { name: words.go }).click();
  await page.waitForURL(`${baseUrl}/dashboard`);
  return page;
}

async function checkPage(page: Page, width: number) {
  expect(await seriousAxeViolations(page)).toEqual([]);
  expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(width);
}

/** The release of one escrow, from the list through the confirmation, in the page's language. */
async function release(
  page: Page,
  screen: { width: number; height: number },
  escrowId: string,
  words: { section: string; release: string; confirmTitle: string; confirm: string; released: string },
) {
  const escrow = await escrowOf(escrowId);
  const held = formatAmount(escrow.amount.amount - escrow.fees.amount);
  await page.getByRole('link', { name: words.section, exact: true }).click();
  await page.waitForURL(`${baseUrl}/dashboard/escrows`);
  await checkPage(page, screen.width);
  const button = page.locator(`li[data-escrow-id="${escrowId}"]`).getByRole('link', { name: words.release });
  // The newest escrow's release is on the first screen, as a phone opens the page.
  const box = await button.boundingBox();
  expect((box?.y ?? screen.height) + (box?.height ?? 0)).toBeLessThanOrEqual(screen.height);
  await button.click();
  await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(words.confirmTitle);
  await expect(page.getByTestId('confirm-amount').textContent()).resolves.toBe(held);
  await checkPage(page, screen.width);
  const confirm = page.getByRole('button', { name: words.confirm });
  const confirmBox = await confirm.boundingBox();
  expect((confirmBox?.y ?? screen.height) + (confirmBox?.height ?? 0)).toBeLessThanOrEqual(screen.height);
  await confirm.click();
  await page.waitForURL(`${baseUrl}/dashboard/escrows`);
  await expect(
    page.locator(`li[data-escrow-id="${escrowId}"] [data-escrow-status]`).textContent(),
  ).resolves.toBe(words.released);
  expect((await escrowOf(escrowId)).status).toBe('released');
}

describe('escrows and soundboxes on the dashboard', () => {
  it('on a 360 × 640 phone in French: an escrow released after its confirmation; the soundboxes page', async () => {
    const screen = { width: 360, height: 640 };
    const escrowId = await heldEscrow(450_000);
    const page = await signedIn(screen, 'fr-CI', {
      phone: 'Numéro de téléphone',
      send: 'Recevoir un code',
      code: 'Code à 6 chiffres',
      go: 'Continuer',
    });
    await release(page, screen, escrowId, {
      section: 'Séquestres',
      release: 'Libérer le séquestre',
      confirmTitle: 'Libérer ce séquestre ?',
      confirm: 'Oui, libérer',
      released: 'Libéré',
    });
    await page.getByRole('link', { name: 'Soundbox', exact: true }).click();
    await page.waitForURL(`${baseUrl}/dashboard/soundboxes`);
    await expect(page.locator(`li[data-device-id="${deviceId}"]`).textContent()).resolves.toContain(
      'Hors ligne',
    );
    await checkPage(page, screen.width);
  });

  it('on a 1280 × 800 desktop in English: the same release, and the soundboxes page', async () => {
    const screen = { width: 1280, height: 800 };
    const escrowId = await heldEscrow(120_000);
    const page = await signedIn(screen, 'en-GB', {
      phone: 'Phone number',
      send: 'Get a code',
      code: '6-digit code',
      go: 'Continue',
    });
    await release(page, screen, escrowId, {
      section: 'Escrows',
      release: 'Release the escrow',
      confirmTitle: 'Release this escrow?',
      confirm: 'Yes, release',
      released: 'Released',
    });
    await page.getByRole('link', { name: 'Soundboxes', exact: true }).click();
    await page.waitForURL(`${baseUrl}/dashboard/soundboxes`);
    await expect(page.locator(`li[data-device-id="${deviceId}"]`).textContent()).resolves.toContain(
      'Offline',
    );
    await checkPage(page, screen.width);
  });
});
