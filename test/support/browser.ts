import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sparticuzChromium from '@sparticuz/chromium';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { projectRoot } from '#infra/paths.ts';

let unpacked: Promise<string> | undefined;

/**
 * The headless Chromium that ships inside the `@sparticuz/chromium` package, so `npm ci && npm
 * test` needs no browser installed by hand and every machine drives the same version. It is
 * unpacked to the temp folder on first use (about 2 s, once per machine). `CHROMIUM_PATH` points
 * the tests at another Chromium instead, for instance to compare with the distribution's.
 */
export function chromiumPath(): Promise<string> {
  const chosen = process.env.CHROMIUM_PATH;
  if (chosen) return Promise.resolve(chosen);
  unpacked ??= sparticuzChromium.executablePath();
  return unpacked;
}

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
  /** What the person allowed the browser, for every site: `clipboard-read` for the copy buttons. */
  permissions?: string[];
}

/** A browser as a payer's phone is, with a profile of its own that no other test shares. */
export async function openPhone({
  viewport = { width: 390, height: 844 },
  locale = 'fr-CI',
  permissions = [],
}: PhoneOptions = {}): Promise<PhoneBrowser> {
  const userDataDir = mkdtempSync(join(tmpdir(), 'pps-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: await chromiumPath(),
    args: chromiumArgs,
    headless: true,
    viewport,
    locale,
    permissions,
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

/**
 * The phones a test file opens, each with a profile of its own, closed together when the file ends:
 * `const phones = phoneRack()`, `afterAll(phones.closeAll)`, then `await phones.open(…)` in a test.
 */
export function phoneRack() {
  const opened: PhoneBrowser[] = [];
  return {
    async open(options?: PhoneOptions): Promise<Page> {
      const phone = await openPhone(options);
      opened.push(phone);
      return phone.page;
    },
    closeAll: async () => {
      await Promise.all(opened.splice(0).map((phone) => phone.close()));
    },
  };
}

/** The two screens every hosted page is checked and shown on: a small phone, and a laptop. */
export const reviewScreens = {
  phone: { width: 360, height: 640 },
  desktop: { width: 1280, height: 800 },
} as const;

/** One Chromium for many screens: a file that goes over many pages opens a context per screen. */
export async function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: await chromiumPath(), args: chromiumArgs, headless: true });
}

/** A fresh profile in `browser`, as a phone (narrow viewports) or a laptop would show the pages. */
export async function openScreen(
  browser: Browser,
  { viewport = { width: 390, height: 844 }, locale = 'fr-CI' }: PhoneOptions = {},
): Promise<PhoneBrowser> {
  const phoneSized = viewport.width < 600;
  const context = await browser.newContext({
    viewport,
    locale,
    isMobile: phoneSized,
    hasTouch: phoneSized,
    deviceScaleFactor: phoneSized ? 2 : 1,
  });
  const page = await context.newPage();
  return { context, page, close: () => context.close() };
}

/**
 * Chooses a provider on a hosted page's form: the one already chosen is shown alone, the others
 * behind "Changer d'opérateur", which this opens when the provider is there.
 */
export async function chooseProvider(page: Page, name: string): Promise<void> {
  const radio = page.getByRole('radio', { name });
  if (!(await radio.isVisible())) await page.locator('.more-providers > summary').click();
  await radio.check();
}
