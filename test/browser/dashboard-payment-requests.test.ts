import type { Page } from 'playwright-core';
import { describe, expect, it, vi } from 'vitest';
import { creditSmsBalance } from '#shared/operations/messages.ts';
import { chooseProvider } from '#test/support/browser.ts';
import { backgroundWorkMs, newDashboardPhone } from '#test/support/dashboard.ts';
import {
  expectAccessibleWithin,
  expectInFirstScreen,
  type Language,
  phonesOfThisFile,
  signUpOnPage,
  theLocalHost,
  verifyFirstLevel,
} from '#test/support/dashboard-setup.ts';

/**
 * A shop owner asks for a payment by SMS, in Chromium: on a 360 × 640 phone in French, the form
 * (its button on the first screen), the check step with the text and its cost, the request's
 * page; the payer opens the SMS in the local inbox, follows its link and pays on the hosted page
 * with a sandbox number; the owner's page turns to "paid" by itself. Then the SMS page. On a
 * desktop in English, the same pages and an SMS sent. Every page: no serious accessibility
 * violation, nothing wider than the screen.
 */
const { baseUrl } = theLocalHost();
const phones = phonesOfThisFile();

/** A new owner through the pages, at the first verification level (level 0 collects nothing), with SMS to spend. */
async function signUp(page: Page, language: Language) {
  const { businessId } = await signUpOnPage(page, baseUrl, language);
  await verifyFirstLevel(businessId);
  await creditSmsBalance(businessId, 10);
}

/** The link of the newest SMS a phone got, from the local inbox as a person would open it. */
async function linkInInbox(page: Page, phone: string): Promise<string> {
  const newest = page.locator(`section.phone[data-number="${phone}"] li.sms`).first();
  return vi.waitFor(
    async () => {
      await page.goto(`${baseUrl}/__local/sms`);
      const text =
        (await newest.count()) > 0 ? await newest.evaluate((item) => item.firstChild?.textContent) : '';
      const link = /https?:\/\/\S+/.exec(text ?? '')?.[0];
      if (!link) throw new Error(`no SMS with a link for ${phone} yet`);
      return link;
    },
    { timeout: backgroundWorkMs, interval: 300 },
  );
}

/** The payer on the hosted page: a provider, the sandbox number that pays, the approval. */
async function payOnHostedPage(page: Page, link: string, language: Language) {
  const fr = language === 'fr';
  await page.goto(link);
  await chooseProvider(page, 'Orange Money');
  await page
    .getByLabel(fr ? 'Numéro de téléphone mobile money' : 'Mobile-money phone number')
    .fill('+2250700000001');
  await page.getByRole('button', { name: fr ? /^Payer 1\s500\sF\sCFA$/ : /^Pay 1\s500\sF\sCFA$/ }).click();
  await page.waitForURL(/\/sandbox\/provider\/checkout\/sbx_/);
  await page.getByRole('button', { name: fr ? 'Approuver' : 'Approve' }).click();
  await page.waitForURL((url) => url.pathname.startsWith('/payment/'));
}

describe('asking for a payment by SMS on the dashboard', () => {
  it('on a 360 × 640 phone in French: asked, texted, paid from the SMS inbox, shown paid', async () => {
    const page = await phones.open({ viewport: { width: 360, height: 640 }, locale: 'fr-CI' });
    await signUp(page, 'fr');
    await page.getByRole('link', { name: 'Demander un paiement' }).click();
    await page.waitForURL(`${baseUrl}/dashboard/payment-requests`);
    await expectAccessibleWithin(page, 360);
    await expect(page.getByTestId('sms-balance').textContent()).resolves.toBe('Solde SMS : 10 SMS.');
    // Phone-first: the form's button is on the first screen.
    await expectInFirstScreen(page.getByRole('button', { name: 'Continuer' }), 640);

    const payer = newDashboardPhone();
    await page.getByLabel('Montant (F CFA)').fill('1 500');
    await page.getByLabel('Numéro du client').fill(`0${payer.slice(5)}`);
    await page.getByLabel('Motif (facultatif)').fill('Deux pagnes wax');
    await page.getByRole('button', { name: 'Continuer' }).click();
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Vérifiez la demande');
    await expectAccessibleWithin(page, 360);
    await expect(page.getByTestId('sms-text').textContent()).resolves.toContain(
      'Boutique Awa vous demande 1 500 F CFA (Deux pagnes wax). Payez ici : ',
    );
    await page.getByRole('button', { name: 'Envoyer la demande par SMS' }).click();
    await page.waitForURL(/\/dashboard\/payment-requests\/[0-9a-f-]{36}$/);
    const requestPage = page.url();
    await expectAccessibleWithin(page, 360);
    await expect(page.locator('[data-status]').first().getAttribute('data-status')).resolves.toBe('pending');

    // The payer, on another phone: the SMS, its link, the hosted page, a sandbox number that pays.
    const payerPage = await phones.open({ viewport: { width: 360, height: 640 }, locale: 'fr-CI' });
    const link = await linkInInbox(payerPage, payer);
    expect(link).toBe(`${baseUrl}/payment/${requestPage.split('/').pop()}`);
    await payOnHostedPage(payerPage, link, 'fr');

    // The owner's page follows the payment by itself (the waiting script), without a reload.
    await page.locator('[data-status="paid"]').waitFor({ timeout: backgroundWorkMs });
    expect(page.url()).toContain(requestPage);
    await expectAccessibleWithin(page, 360);
    await page.getByRole('link', { name: 'Retour aux demandes' }).click();
    await expect(
      page.getByTestId('asked-requests').locator('[data-status]').first().textContent(),
    ).resolves.toBe('Payée');

    await page.getByRole('link', { name: 'SMS', exact: true }).click();
    await page.waitForURL(`${baseUrl}/dashboard/sms`);
    await expectAccessibleWithin(page, 360);
    await expectInFirstScreen(page.getByRole('button', { name: 'Continuer' }), 640);
    await expect(page.getByTestId('sent-sms').textContent()).resolves.toContain(link);
  });

  it('on a 1280 × 800 desktop in English: the same pages, and an SMS sent from the SMS page', async () => {
    const page = await phones.open({ viewport: { width: 1280, height: 800 }, locale: 'en-GB' });
    await signUp(page, 'en');
    await page.getByRole('link', { name: 'Ask for a payment' }).click();
    await expectAccessibleWithin(page, 1280);
    const payer = newDashboardPhone();
    await page.getByLabel('Amount (F CFA)').fill('1500');
    await page.getByLabel('Customer’s number').fill(payer);
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Check the request');
    await expectAccessibleWithin(page, 1280);
    await page.getByRole('button', { name: 'Send the request by SMS' }).click();
    await page.waitForURL(/\/dashboard\/payment-requests\/[0-9a-f-]{36}$/);
    await expectAccessibleWithin(page, 1280);
    await expect(page.locator('[data-status]').first().textContent()).resolves.toBe('Pending');

    const payerPage = await phones.open({ viewport: { width: 1280, height: 800 }, locale: 'en-GB' });
    await payOnHostedPage(payerPage, await linkInInbox(payerPage, payer), 'en');
    await page.locator('[data-status="paid"]').waitFor({ timeout: backgroundWorkMs });
    await expectAccessibleWithin(page, 1280);

    await page.getByRole('link', { name: 'SMS', exact: true }).click();
    await expectAccessibleWithin(page, 1280);
    const to = newDashboardPhone();
    await page.getByLabel('Recipient').fill(to);
    await page.getByLabel('Message').fill('Thank you for your order.');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByTestId('sms-segments').textContent()).resolves.toContain('Cost: 1 SMS');
    await expectAccessibleWithin(page, 1280);
    await page.getByRole('button', { name: 'Send the SMS' }).click();
    await page.waitForURL(`${baseUrl}/dashboard/sms`);
    await expectAccessibleWithin(page, 1280);
    await expect(page.getByTestId('sms-balance').textContent()).resolves.toMatch(/^Balance: \d+ SMS$/);
    await expect(page.getByTestId('sent-sms').locator('li').first().textContent()).resolves.toContain(
      'Thank you for your order.',
    );
  });
});
