import { randomInt } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { seriousAxeViolations } from '#test/support/accessibility.ts';
import { openPhone, type PhoneBrowser } from '#test/support/browser.ts';
import { DashboardBrowser, invitationLinksOf, nextCodeOf, signInCodesOf } from '#test/support/dashboard.ts';

/**
 * The dashboard's team, businesses and identity check in Chromium, the forms posted by the browser
 * itself: an owner on a small phone in French (360 × 640) signs up, verifies and invites; the
 * invitee on a desktop screen in English (1280 × 800) follows the SMS link, signs in as a viewer,
 * switches to their own business and signs out everywhere. Two browser launches in all; every
 * page met is checked with axe.
 */
const { config } = inject('localHost');
const baseUrl = config.baseUrl;
const browsers: PhoneBrowser[] = [];
const newPhone = () => `+22507${String(randomInt(0, 100_000_000)).padStart(8, '0')}`;

async function screen(width: number, height: number, locale: string): Promise<Page> {
  const opened = await openPhone({ viewport: { width, height }, locale });
  browsers.push(opened);
  return opened.page;
}

afterAll(async () => {
  await Promise.all(browsers.map((opened) => opened.close()));
});

const fitsTheScreen = async (page: Page, width: number) =>
  expect(page.evaluate<number>('document.documentElement.scrollWidth')).resolves.toBeLessThanOrEqual(width);
const noSeriousViolations = async (page: Page) => expect(await seriousAxeViolations(page)).toEqual([]);

async function signInOnPage(
  page: Page,
  phone: string,
  labels: { phone: string; send: string; code: string; go: string },
) {
  const had = (await signInCodesOf(baseUrl, phone)).length;
  await page.getByLabel(labels.phone).fill(phone);
  await page.getByRole('button', { name: labels.send }).click();
  await page.waitForURL(/\/dashboard\/sign-in\/code/);
  await page.getByLabel(labels.code).fill(await nextCodeOf(baseUrl, phone, had));
  await page.getByRole('button', { name: labels.go }).click();
}

describe('the team on the dashboard', () => {
  it('sign up, verify, invite a viewer who signs in from the SMS link, switch business, sign out everywhere', async () => {
    // The owner, on a small phone in French.
    const owner = await screen(360, 640, 'fr-CI');
    const ownerPhone = newPhone();
    await owner.goto(`${baseUrl}/dashboard`);
    await signInOnPage(owner, ownerPhone, {
      phone: 'Numéro de téléphone',
      send: 'Recevoir un code',
      code: 'Code à 6 chiffres',
      go: 'Continuer',
    });
    await owner.waitForURL(`${baseUrl}/dashboard/sign-up`);
    await owner.getByLabel('Votre prénom').fill('Mariam');
    await owner.getByLabel('Votre nom').fill('Ouattara');
    await owner.getByLabel('Nom de l’entreprise').fill('Salon <Mariam> & Filles');
    await owner.getByLabel('Activité').selectOption('commerce.boutique');
    await owner.getByLabel('Nom de votre premier point de vente').fill('Treichville');
    await owner.getByRole('button', { name: 'Créer mon entreprise' }).click();
    await owner.waitForURL(`${baseUrl}/dashboard`);
    await expect(owner.getByTestId('business-name').textContent()).resolves.toBe('Salon <Mariam> & Filles');
    await expect(owner.getByTestId('verification-level').textContent()).resolves.toBe('0');
    await expect(owner.getByTestId('api-access').textContent()).resolves.toBe('Pas encore activé');
    await expect(owner.getByTestId('ceiling').textContent()).resolves.toMatch(/^0\sF\sCFA$/);
    await fitsTheScreen(owner, 360);
    await noSeriousViolations(owner);

    // The identity check, on the dashboard.
    await owner.getByRole('button', { name: 'Vérifier votre identité' }).click();
    await owner.waitForURL(/\/dashboard\/verification\/[0-9a-f-]{36}$/);
    await fitsTheScreen(owner, 360);
    await noSeriousViolations(owner);
    await owner.getByLabel('Prénoms').fill('Mariam');
    await owner.getByLabel('Nom', { exact: true }).fill('Ouattara');
    await owner.getByLabel('Numéro de la pièce d’identité').fill('CI004512387');
    // The date in three fields (day, month, year), as the GOV.UK date input asks it.
    await owner.getByLabel('Jour').fill('12');
    await owner.getByLabel('Mois').fill('4');
    await owner.getByLabel('Année').fill('1990');
    await owner.getByRole('button', { name: 'Envoyer' }).click();
    await expect(owner.locator('[data-status]').getAttribute('data-status')).resolves.toBe('approved');
    await owner.goto(`${baseUrl}/dashboard`);
    await expect(owner.getByTestId('verification-level').textContent()).resolves.toBe('1');
    await expect(owner.getByTestId('api-access').textContent()).resolves.toBe('Activé');
    await expect(owner.getByTestId('ceiling').textContent()).resolves.toMatch(/^2\s000\s000\sF\sCFA$/);
    await expect(owner.getByTestId('collected').textContent()).resolves.toMatch(/^0\sF\sCFA$/);

    // The invitee already runs a business of their own (signed up without a browser).
    const inviteePhone = newPhone();
    const ownBusiness = new DashboardBrowser(baseUrl);
    await ownBusiness.signInWith(inviteePhone);
    const signedUp = await ownBusiness.post('/dashboard/sign-up', {
      firstName: 'Kofi',
      lastName: 'Mensah',
      businessName: 'Kofi Électronique',
      activityId: 'commerce.boutique',
      storeName: 'Adjamé',
    });
    expect(signedUp.status).toBe(303);

    // The owner invites them as a viewer.
    await owner.getByRole('link', { name: 'Équipe' }).click();
    await owner.waitForURL(`${baseUrl}/dashboard/team`);
    await noSeriousViolations(owner);
    await owner.getByLabel('Prénom', { exact: true }).fill('Kofi');
    await owner.getByLabel('Nom', { exact: true }).fill('Mensah');
    await owner.getByLabel('Numéro de téléphone').fill(inviteePhone);
    await owner.getByLabel('Rôle', { exact: true }).selectOption('viewer');
    await owner.getByRole('button', { name: 'Envoyer l’invitation' }).click();
    await owner.waitForURL(`${baseUrl}/dashboard/team`);
    await expect(owner.getByTestId('invitations').textContent()).resolves.toContain('Lecture seule');
    await fitsTheScreen(owner, 360);

    // The invitee, on a desktop screen in English, opens the link of the text they got.
    const invitee = await screen(1280, 800, 'en-GB');
    const [link] = await invitationLinksOf(baseUrl, inviteePhone);
    await invitee.goto(`${link}`.replace('lang=fr', 'lang=en'));
    await signInOnPage(invitee, inviteePhone, {
      phone: 'Phone number',
      send: 'Get a code',
      code: '6-digit code',
      go: 'Continue',
    });
    await invitee.waitForURL(/\/dashboard(\?lang=en)?$/);
    await expect(invitee.getByTestId('business-name').textContent()).resolves.toBe('Salon <Mariam> & Filles');
    await expect(invitee.getByTestId('role').textContent()).resolves.toBe('Viewer');
    await noSeriousViolations(invitee);
    await invitee.getByRole('link', { name: 'Team' }).click();
    await expect(invitee.getByRole('button', { name: 'Send the invitation' }).count()).resolves.toBe(0);
    await expect(invitee.getByTestId('members').textContent()).resolves.toContain('Kofi Mensah');
    await noSeriousViolations(invitee);
    await fitsTheScreen(invitee, 1280);

    // Switching to their own business.
    await invitee.getByRole('link', { name: 'Back to the dashboard' }).click();
    await invitee.getByRole('link', { name: 'Switch business' }).click();
    await invitee.waitForURL(/\/dashboard\/businesses/);
    await noSeriousViolations(invitee);
    await invitee.getByRole('button', { name: 'Act for Kofi Électronique' }).click();
    await invitee.waitForURL(/\/dashboard(\?lang=en)?$/);
    await expect(invitee.getByTestId('business-name').textContent()).resolves.toBe('Kofi Électronique');
    await expect(invitee.getByTestId('role').textContent()).resolves.toBe('Owner');

    // Signing out everywhere ends the session of the browser and the other one alike.
    expect((await ownBusiness.get('/dashboard')).status).toBe(200);
    await invitee.getByRole('button', { name: 'Sign out everywhere' }).click();
    await invitee.waitForURL(/\/dashboard\/sign-in/);
    await invitee.goto(`${baseUrl}/dashboard`);
    expect(invitee.url()).toBe(`${baseUrl}/dashboard/sign-in`);
    const other = await ownBusiness.get('/dashboard');
    expect(other.status).toBe(303);
    expect(other.location).toBe(`${baseUrl}/dashboard/sign-in`);
    // The owner's session is theirs alone: it lives on.
    await owner.goto(`${baseUrl}/dashboard`);
    expect(owner.url()).toBe(`${baseUrl}/dashboard`);
  });
});
