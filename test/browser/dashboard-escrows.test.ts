import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { formatAmount } from '#shared/pages/format.ts';
import { apiClient, type Body } from '#test/support/api-client.ts';
import {
  expectAccessibleWithin,
  expectInFirstScreen,
  heldEscrow,
  type Language,
  phonesOfThisFile,
  provisionSoundbox,
  signInOnPage,
  theLocalHost,
  type VerifiedOwner,
  verifiedOwner,
} from '#test/support/dashboard-setup.ts';

/**
 * A shop owner releases an escrow from the dashboard, in Chromium: on a 360 × 640 phone in French
 * and on a 1280 × 800 desktop in English, an escrow held through the API is on the escrows page,
 * its release button on the first screen, released after the confirmation that shows the amount;
 * the API then shows it released. The soundboxes page lists a provisioned device. Every page: no
 * serious accessibility violation, nothing wider than the screen.
 */
const { dataDir, baseUrl } = theLocalHost();
const call = apiClient(baseUrl);
const phones = phonesOfThisFile();
/** A business with a platform key (escrows need one) and a soundbox. */
let owner: VerifiedOwner;
let deviceId: string;

beforeAll(async () => {
  owner = await verifiedOwner(baseUrl, { key: 'platform' });
  deviceId = (await provisionSoundbox(dataDir, owner.storeId)).deviceId;
});

const escrowOf = async (id: string): Promise<Body> =>
  ((await call('GET', '/partner_api/escrows', owner.headers)).body as Body[]).find(
    (escrow) => escrow.id === id,
  );

/** A Chromium page signed in as the owner, through the sign-in page in the screen's language. */
async function signedIn(viewport: { width: number; height: number }, language: Language): Promise<Page> {
  const page = await phones.open({ viewport, locale: language === 'fr' ? 'fr-CI' : 'en-GB' });
  await page.goto(`${baseUrl}/dashboard/sign-in`);
  await signInOnPage(page, owner.phone, language);
  await page.waitForURL(`${baseUrl}/dashboard`);
  return page;
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
  await expectAccessibleWithin(page, screen.width);
  const button = page.locator(`li[data-escrow-id="${escrowId}"]`).getByRole('link', { name: words.release });
  // The newest escrow's release is on the first screen, as a phone opens the page.
  await expectInFirstScreen(button, screen.height);
  await button.click();
  await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(words.confirmTitle);
  await expect(page.getByTestId('confirm-amount').textContent()).resolves.toBe(held);
  await expectAccessibleWithin(page, screen.width);
  const confirm = page.getByRole('button', { name: words.confirm });
  await expectInFirstScreen(confirm, screen.height);
  await confirm.click();
  await page.waitForURL(`${baseUrl}/dashboard/escrows?done=released`);
  await page.getByTestId('notice').waitFor();
  await expect(
    page.locator(`li[data-escrow-id="${escrowId}"] [data-escrow-status]`).textContent(),
  ).resolves.toBe(words.released);
  expect((await escrowOf(escrowId)).status).toBe('released');
}

describe('escrows and soundboxes on the dashboard', () => {
  for (const { title, screen, language, amountCents, words, soundboxes } of [
    {
      title: 'on a 360 × 640 phone in French: an escrow released after its confirmation; the soundboxes page',
      screen: { width: 360, height: 640 },
      language: 'fr',
      amountCents: 450_000,
      words: {
        section: 'Séquestres',
        release: 'Libérer le séquestre',
        confirmTitle: 'Libérer ce séquestre ?',
        confirm: 'Oui, libérer',
        released: 'Libéré',
      },
      soundboxes: { link: 'Soundbox', offline: 'Hors ligne' },
    },
    {
      title: 'on a 1280 × 800 desktop in English: the same release, and the soundboxes page',
      screen: { width: 1280, height: 800 },
      language: 'en',
      amountCents: 120_000,
      words: {
        section: 'Escrows',
        release: 'Release the escrow',
        confirmTitle: 'Release this escrow?',
        confirm: 'Yes, release',
        released: 'Released',
      },
      soundboxes: { link: 'Soundboxes', offline: 'Offline' },
    },
  ] as const) {
    it(title, async () => {
      const { escrowId } = await heldEscrow(owner, amountCents);
      const page = await signedIn(screen, language);
      await release(page, screen, escrowId, words);
      await page.getByRole('link', { name: soundboxes.link, exact: true }).click();
      await page.waitForURL(`${baseUrl}/dashboard/soundboxes`);
      await expect(page.locator(`li[data-device-id="${deviceId}"]`).textContent()).resolves.toContain(
        soundboxes.offline,
      );
      await expectAccessibleWithin(page, screen.width);
    });
  }
});
