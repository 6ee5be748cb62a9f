import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { projectRoot } from '#infra/paths.ts';

/**
 * Debian's Chromium, never a downloaded browser: CI installs the distribution package, so the
 * browser the tests drive is the one the machine already trusts and updates.
 */
export const chromiumPath = '/usr/bin/chromium';

/** Screenshots for a person to look at; `.bench/` is kept out of git. */
export const screenshotDir = join(projectRoot, '.bench', 'screenshots');

/** Headless and silent: no sandbox (CI runs as root), no GPU, and no traffic of Chromium's own. */
const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface PhoneBrowser {
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

export interface PhoneOptions {
  /** Default 390 × 844, a common phone. */
  viewport?: { width: number; height: number };
  /** Sets Accept-Language, as the phone's language setting does. Default fr-CI. */
  locale?: string;
}

/** A browser as a payer's phone is, with a profile of its own that no other test shares. */
export async function openPhone({
  viewport = { width: 390, height: 844 },
  locale = 'fr-CI',
}: PhoneOptions = {}): Promise<PhoneBrowser> {
  const userDataDir = mkdtempSync(join(tmpdir(), 'pps-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: chromiumPath,
    args: chromiumArgs,
    headless: true,
    viewport,
    locale,
    isMobile: true,
    hasTouch: true,
    deviceScaleFactor: 2,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    close: async () => {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}
