import { describe, expect, it } from 'vitest';
import { invitationLinksOf, signUpOwner } from '#test/support/dashboard.ts';
import {
  expectAccessibleWithin,
  phonesOfThisFile,
  signInOnPage,
  signUpOnPage,
  theLocalHost,
} from '#test/support/dashboard-setup.ts';

/**
 * The dashboard's team, businesses and identity check in Chromium, the forms posted by the browser
 * itself: an owner on a small phone in French (360 × 640) signs up, verifies and invites; the
 * invitee on a desktop screen in English (1280 × 800) follows the SMS link, signs in as a viewer,
 * switches to their own business and signs out everywhere. Two browser launches in all; every
 * page met is checked with axe.
 */
const { baseUrl } = theLocalHost();
const phones = phonesOfThisFile();

describe('the team on the dashboard', () => {
  it('sign up, verify, invite a viewer who signs in from the SMS link, switch business, sign out everywhere', async () => {
    // The owner, on a small phone in French.
    const owner = await phones.open({ viewport: { width: 360, height: 640 }, locale: 'fr-CI' });
    await signUpOnPage(owner, baseUrl, 'fr', {
      firstName: 'Mariam',
      lastName: 'Ouattara',
      businessName: 'Salon <Mariam> & Filles',
      storeName: 'Treichville',
    });
    await expect(owner.getByTestId('business-name').textContent()).resolves.toBe('Salon <Mariam> & Filles');
    await expect(owner.getByTestId('verification-level').textContent()).resolves.toBe('0');
    await expect(owner.getByTestId('api-access').textContent()).resolves.toBe('Pas encore activé');
    await expect(owner.getByTestId('ceiling').textContent()).resolves.toMatch(/^0\sF\sCFA$/);
    await expectAccessibleWithin(owner, 360);

    // The identity check, on the dashboard.
    await owner.getByRole('button', { name: 'Vérifier votre identité' }).click();
    await owner.waitForURL(/\/dashboard\/verification\/[0-9a-f-]{36}$/);
    await expectAccessibleWithin(owner, 360);
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
    const { browser: ownBusiness, phone: inviteePhone } = await signUpOwner(baseUrl, {
      firstName: 'Kofi',
      lastName: 'Mensah',
      businessName: 'Kofi Électronique',
      activityId: 'commerce.boutique',
      storeName: 'Adjamé',
    });

    // The owner invites them as a viewer.
    await owner.getByRole('link', { name: 'Équipe' }).click();
    await owner.waitForURL(`${baseUrl}/dashboard/team`);
    await expectAccessibleWithin(owner, 360);
    await owner.getByLabel('Prénom', { exact: true }).fill('Kofi');
    await owner.getByLabel('Nom', { exact: true }).fill('Mensah');
    await owner.getByLabel('Numéro de téléphone').fill(inviteePhone);
    await owner.getByLabel('Rôle', { exact: true }).selectOption('viewer');
    await owner.getByRole('button', { name: 'Envoyer l’invitation' }).click();
    // Post, then redirect: the team page says to whom the invitation went.
    await owner.waitForURL(/\/dashboard\/team\?invited=/);
    await expect(owner.getByTestId('notice').textContent()).resolves.toContain(
      'Invitation envoyée à Kofi Mensah',
    );
    await expect(owner.getByTestId('invitations').textContent()).resolves.toContain('Lecture seule');
    await expectAccessibleWithin(owner, 360);

    // The invitee, on a desktop screen in English, opens the link of the text they got.
    const invitee = await phones.open({ viewport: { width: 1280, height: 800 }, locale: 'en-GB' });
    const [link] = await invitationLinksOf(baseUrl, inviteePhone);
    await invitee.goto(`${link}`.replace('lang=fr', 'lang=en'));
    await signInOnPage(invitee, inviteePhone, 'en');
    await invitee.waitForURL(/\/dashboard(\?lang=en)?$/);
    await expect(invitee.getByTestId('business-name').textContent()).resolves.toBe('Salon <Mariam> & Filles');
    await expect(invitee.getByTestId('role').textContent()).resolves.toBe('Viewer');
    await expectAccessibleWithin(invitee, 1280);
    await invitee.getByRole('link', { name: 'Team' }).click();
    await expect(invitee.getByRole('button', { name: 'Send the invitation' }).count()).resolves.toBe(0);
    await expect(invitee.getByTestId('members').textContent()).resolves.toContain('Kofi Mensah');
    await expectAccessibleWithin(invitee, 1280);

    // Switching to their own business.
    await invitee.getByRole('link', { name: 'Back to the dashboard' }).click();
    await invitee.getByRole('link', { name: 'Switch business' }).click();
    await invitee.waitForURL(/\/dashboard\/businesses/);
    await expectAccessibleWithin(invitee, 1280);
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
