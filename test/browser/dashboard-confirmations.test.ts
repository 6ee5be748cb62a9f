import { describe, expect, it } from 'vitest';
import { apiClient } from '#test/support/api-client.ts';
import { newDashboardPhone, signUpOwner } from '#test/support/dashboard.ts';
import {
  expectAccessibleWithin,
  phonesOfThisFile,
  shareSession,
  theLocalHost,
  verifiedOwner,
} from '#test/support/dashboard-setup.ts';
import { paymentRequestBody } from '#test/support/paid-payments.ts';

/**
 * Issue 35 in Chromium, the forms posted by the browser itself: a destructive action's first tap
 * opens a confirmation (what will happen, in plain words) that changes nothing, "No, go back"
 * leaves everything as it was, "Yes" does it and the next page says so. An invitation is sent
 * (the team page names whom) and cancelled on a 360 × 640 phone in French; a pending payment
 * request is cancelled on a 1280 × 800 screen in English. Every page met is checked with axe and
 * for nothing wider than the screen.
 */
const { baseUrl } = theLocalHost();
const call = apiClient(baseUrl);
const phones = phonesOfThisFile();

describe('asking before a destructive action, in Chromium', () => {
  it('on a 360 × 640 phone in French: an invitation sent, said so, then cancelled after its confirmation', async () => {
    const owner = await signUpOwner(baseUrl);
    const page = await phones.open({ viewport: { width: 360, height: 640 }, locale: 'fr-CI' });
    await shareSession(page, owner.browser);
    await page.goto(`${baseUrl}/dashboard/team`);
    await page.getByLabel('Prénom', { exact: true }).fill('Fatou');
    await page.getByLabel('Nom', { exact: true }).fill('Diallo');
    await page.getByLabel('Numéro de téléphone').fill(newDashboardPhone());
    await page.getByRole('button', { name: 'Envoyer l’invitation' }).click();
    await page.waitForURL(/\/dashboard\/team\?invited=/);
    await expect(page.getByTestId('notice').textContent()).resolves.toMatch(
      /Invitation envoyée à Fatou Diallo/,
    );
    await expectAccessibleWithin(page, 360);

    const cancel = page.getByRole('link', { name: 'Annuler l’invitation de Fatou Diallo' });
    await cancel.click();
    await page.waitForURL(/\/dashboard\/team\/invitations\/[A-Za-z0-9_-]+\/cancel$/);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
      'Annuler cette invitation ?',
    );
    await expect(page.getByTestId('confirmation').textContent()).resolves.toContain(
      'ne permettra plus à Fatou Diallo de rejoindre l’entreprise',
    );
    await expectAccessibleWithin(page, 360);

    // Going back changes nothing.
    await page.getByRole('link', { name: 'Non, revenir en arrière' }).click();
    await page.waitForURL(`${baseUrl}/dashboard/team`);
    await expect(page.getByTestId('invitations').textContent()).resolves.toContain('Fatou Diallo');

    await page.getByRole('link', { name: 'Annuler l’invitation de Fatou Diallo' }).click();
    await page.getByRole('button', { name: 'Oui, annuler l’invitation' }).click();
    await page.waitForURL(/\/dashboard\/team\?done=cancelled$/);
    await expect(page.getByTestId('notice').textContent()).resolves.toContain('L’invitation a été annulée');
    await expect(page.getByTestId('invitations').count()).resolves.toBe(0);
    await expectAccessibleWithin(page, 360);
  });

  it('on a 1280 × 800 screen in English: a pending request cancelled from its confirmation, not from its page’s first button', async () => {
    const owner = await verifiedOwner(baseUrl);
    const created = await call(
      'POST',
      '/partner_api/payment_requests',
      owner.headers,
      paymentRequestBody(owner.storeId, 'wave', 45_000),
    );
    expect(created.status).toBe(200);
    const id = created.body.id as string;
    const page = await phones.open({ viewport: { width: 1280, height: 800 }, locale: 'en-GB' });
    await shareSession(page, owner.browser);
    await page.goto(`${baseUrl}/dashboard/transactions/${id}?lang=en`);
    await expectAccessibleWithin(page, 1280);
    // The details come first; the cancellation is a secondary link after them, no red button.
    const main = page.locator('main');
    await expect(main.locator('.button-decline').count()).resolves.toBe(0);
    const reference = await page.getByTestId('reference').boundingBox();
    const cancel = page.getByRole('link', { name: 'Cancel the payment request' });
    expect((await cancel.boundingBox())?.y ?? 0).toBeGreaterThan(reference?.y ?? Number.POSITIVE_INFINITY);

    await cancel.click();
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
      'Cancel this payment request?',
    );
    await expect(page.getByTestId('confirm-warning').textContent()).resolves.toContain(
      'cannot be brought back',
    );
    await expectAccessibleWithin(page, 1280);
    // Nothing changed yet.
    expect((await call('GET', `/partner_api/payment_requests/${id}`, owner.headers)).body.status).toBe(
      'pending',
    );

    await page.getByRole('button', { name: 'Yes, cancel the request' }).click();
    await expect(page.getByTestId('notice').textContent()).resolves.toContain(
      'The payment request was cancelled',
    );
    await expectAccessibleWithin(page, 1280);
    expect((await call('GET', `/partner_api/payment_requests/${id}`, owner.headers)).body).toMatchObject({
      status: 'error',
      errorReason: 'cancelled',
    });
  });
});
