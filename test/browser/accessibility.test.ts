import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type AxeViolation, seriousAxeViolations } from '#test/support/accessibility.ts';
import { demoApi } from '#test/support/api-client.ts';
import { launchChromium, openScreen, reviewScreens } from '#test/support/browser.ts';
import { type PageState, preparePageStates } from '#test/support/page-states.ts';

const { config, dataDir } = inject('localHost');
const api = demoApi(config);

let browser: Browser;
let states: PageState[];

beforeAll(async () => {
  // One browser for the whole file, a fresh context per screen and language.
  [browser, states] = await Promise.all([launchChromium(), preparePageStates(config, dataDir)]);
}, 240_000);

afterAll(async () => {
  await browser?.close();
});

const combinations = (['fr', 'en'] as const).flatMap((language) =>
  (Object.keys(reviewScreens) as (keyof typeof reviewScreens)[]).map((screen) => ({ language, screen })),
);

/** WCAG's contrast ratio of two `rgb(r, g, b)` colours. */
function contrast(first: string, second: string): number {
  const luminance = (colour: string) => {
    const [r = 0, g = 0, b = 0] = (colour.match(/\d+(\.\d+)?/g) ?? []).map(Number).map((channel) => {
      const value = channel / 255;
      return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [light, dark] = [luminance(first), luminance(second)].sort((x, y) => y - x);
  return ((light ?? 0) + 0.05) / ((dark ?? 0) + 0.05);
}

/** The states whose page carries the payer's form: Pay must be in the first phone screen. */
const payerForms = [
  'payment-form',
  'payment-error-empty-phone',
  'payment-error-bad-phone',
  'payment-refused',
  'payment-declined-retry',
  'link-form',
  'link-error-empty-phone',
];

describe('every hosted page, in every state, to axe-core', () => {
  it.each(combinations)(
    'has no serious or critical violation ($language, $screen)',
    async ({ language, screen }) => {
      const opened = await openScreen(browser, {
        viewport: reviewScreens[screen],
        locale: language === 'fr' ? 'fr-CI' : 'en-GB',
      });
      try {
        const found: Record<string, AxeViolation[]> = {};
        for (const state of states) {
          await state.visit(opened.page);
          // The page is in the language asked for: the check is of the page a payer would read.
          if (!state.name.startsWith('soundbox'))
            expect(await opened.page.locator('html').getAttribute('lang'), state.name).toBe(language);
          const violations = await seriousAxeViolations(opened.page);
          if (violations.length > 0) found[state.name] = violations;
        }
        expect(found).toEqual({});
        expect(states.length).toBeGreaterThanOrEqual(30);
      } finally {
        await opened.close();
      }
    },
    300_000,
  );

  it.each(['fr', 'en'] as const)(
    'shows Pay in the first 360 × 640 screen on the payer form, after every error too (%s)',
    async (language) => {
      const opened = await openScreen(browser, {
        viewport: reviewScreens.phone,
        locale: language === 'fr' ? 'fr-CI' : 'en-GB',
      });
      try {
        const { page } = opened;
        for (const name of payerForms) {
          const state = states.find((candidate) => candidate.name === name);
          expect(state, name).toBeDefined();
          await state?.visit(page);
          const pay = page.locator('form.content button[type=submit]').first();
          const box = await pay.boundingBox();
          // Within the viewport as it is shown, focus and any scrolling included, and not scrolled at all.
          expect(await page.evaluate<number>('window.scrollY'), name).toBe(0);
          expect(box, name).not.toBeNull();
          expect(box?.y ?? -1, name).toBeGreaterThanOrEqual(0);
          expect((box?.y ?? 0) + (box?.height ?? 0), name).toBeLessThanOrEqual(reviewScreens.phone.height);
          // An operator is always chosen: the payer can pay at once.
          expect(await page.locator('input[name=paymentMethod]:checked').count(), name).toBe(1);
          // The phone field's border stands out from the card: WCAG 1.4.11 asks 3:1 for a control.
          const [border, background] = await page.evaluate<string[]>(
            '(field => [getComputedStyle(field).borderTopColor, getComputedStyle(field.closest(".card")).backgroundColor])(document.getElementById("payerPhone"))',
          );
          expect(contrast(border ?? '', background ?? ''), name).toBeGreaterThanOrEqual(3);
          // After a rejected submit, the summary leads to the field, and the field has the focus.
          if (name.includes('error')) {
            const link = page.locator('#form-errors a').first();
            expect(await link.getAttribute('href'), name).toBe('#payerPhone');
            expect(await page.evaluate<string>('document.activeElement?.id ?? ""'), name).toBe('payerPhone');
          }
        }
      } finally {
        await opened.close();
      }
    },
    120_000,
  );

  it('takes a payment with the keyboard alone: Tab, typing, Space and Enter, in a logical order', async () => {
    const successUrl = `${config.baseUrl}/__test/ok`;
    const { status, body } = await api('POST', '/partner_api/payment_requests', {
      storeId: config.demo.storeId,
      amountCents: 150_000,
      currency: 'XOF',
      reference: `keyboard-${Date.now()}`,
      paymentDetails: {
        type: 'redirect',
        data: { paymentMethod: 'wave', successUrl, errorUrl: `${config.baseUrl}/__test/ko` },
      },
    });
    expect(status).toBe(200);
    const opened = await openScreen(browser, { viewport: reviewScreens.phone });
    try {
      const { page } = opened;
      const focused = () =>
        page.evaluate<string>(
          '(({ id, tagName, value, textContent }) => id || (tagName === "INPUT" ? value : textContent.replace(/\\s+/g, " ").trim()))(document.activeElement)',
        );
      const tabUntil = async (target: (name: string) => boolean) => {
        const order: string[] = [];
        for (let presses = 0; presses < 12; presses++) {
          await page.keyboard.press('Tab');
          order.push(await focused());
          if (target(order.at(-1) ?? '')) return order;
        }
        throw new Error(`not reached with Tab: ${order.join(' → ')}`);
      };
      await page.goto(body.redirectUrl);
      // The number's country and its button, the chosen operator, the way to another, the
      // phone: in reading order.
      expect(await tabUntil((name) => name === 'payerPhone')).toEqual([
        'payerCountry',
        'Changer',
        'wave',
        "Changer d'opérateur",
        'payerPhone',
      ]);
      await page.keyboard.type('0700000001');
      expect(await tabUntil((name) => name.startsWith('Payer'))).toEqual(['Payer 1 500 F CFA']);
      await Promise.all([page.waitForURL(/\/sandbox\/provider\/checkout\//), page.keyboard.press('Space')]);
      await tabUntil((name) => name === 'Approuver');
      await Promise.all([page.waitForURL(successUrl), page.keyboard.press('Enter')]);
      const paid = await api('GET', `/partner_api/payment_requests/${body.id}`);
      expect(paid.body).toMatchObject({ status: 'success', transaction: { status: 'success' } });
    } finally {
      await opened.close();
    }
  });
});
