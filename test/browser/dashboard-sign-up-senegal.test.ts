import { randomInt } from 'node:crypto';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { nextCodeOf } from '#test/support/dashboard.ts';
import { expectAccessibleWithin, phonesOfThisFile, theLocalHost } from '#test/support/dashboard-setup.ts';

/**
 * A Senegalese owner signs up with the number typed as Senegalese people write it, `77 738 49 78`:
 * the first screen reads national numbers in a country it lets them choose, pre-set from the
 * browser's language region (`fr-SN`), and its examples are of that country. In English, from a
 * browser that names no country of the zone, the owner chooses Senegal on the form (no script).
 */
const { baseUrl } = theLocalHost();
const phones = phonesOfThisFile();

/** Sign-up's remaining steps once the phone is posted: the code, the business, the home. */
async function finishSignUp(
  page: Page,
  phone: string,
  words: {
    code: string;
    continue: string;
    firstName: string;
    lastName: string;
    business: string;
    store: string;
  },
  create: string,
  activity: string,
) {
  const code = await nextCodeOf(baseUrl, phone, 0);
  await page.getByLabel(words.code).fill(code);
  await page.getByRole('button', { name: words.continue }).click();
  await page.waitForURL(/\/dashboard\/sign-up/);
  // The verified number is the Senegalese one, in its international form.
  await expect(page.locator('main, body').first().textContent()).resolves.toContain('+221');
  await expectAccessibleWithin(page, 360);
  await page.getByLabel(words.firstName).fill('Awa');
  await page.getByLabel(words.lastName).fill('Diop');
  await page.getByLabel(words.business).fill('Boutique Awa');
  await page.getByLabel(activity).selectOption('commerce.boutique');
  await page.getByLabel(words.store).fill('Sandaga');
  await page.getByRole('button', { name: create }).click();
  await page.waitForURL((url) => url.pathname === '/dashboard');
  await expect(page.getByTestId('business-name').textContent()).resolves.toBe('Boutique Awa');
  await expectAccessibleWithin(page, 360);
  const [session] = (await page.context().cookies(baseUrl)).filter((cookie) => cookie.name === 'session');
  expect(session?.value).toBeTruthy();
}

describe('a Senegalese owner signs up with the number typed the local way', () => {
  it('in French, Senegal pre-set from the browser’s fr-SN: 77 738 49 78 reaches a signed-in home', async () => {
    const page = await phones.open({ viewport: { width: 360, height: 640 }, locale: 'fr-SN' });
    await page.goto(`${baseUrl}/dashboard/sign-in`);
    await expect(page.locator('html').getAttribute('lang')).resolves.toBe('fr');
    const country = page.getByLabel('Pays du numéro');
    await expect(country.inputValue()).resolves.toBe('SN');
    // The example is a Senegalese number, not an Ivorian one.
    const hint = (await page.locator('#phone-hint').textContent())?.replace(/\u00a0/g, ' ');
    expect(hint).toContain('77 123 45 67');
    expect(hint).not.toContain('07 07');
    await expectAccessibleWithin(page, 360);

    await page.getByLabel('Numéro de téléphone').fill('77 738 49 78');
    await page.getByRole('button', { name: 'Recevoir un code' }).click();
    await page.waitForURL(`${baseUrl}/dashboard/sign-in/code`);
    await finishSignUp(
      page,
      '+221777384978',
      {
        code: 'Code à 6 chiffres',
        continue: 'Continuer',
        firstName: 'Votre prénom',
        lastName: 'Votre nom',
        business: 'Nom de l’entreprise',
        store: 'Nom de votre premier point de vente',
      },
      'Créer mon entreprise',
      'Activité',
    );

    // The business is Senegalese now (its store's country is its owner's number's): the dashboard's
    // phone fields read Senegalese numbers, show a Senegalese example and list Wave first.
    await page.goto(`${baseUrl}/dashboard/contacts`);
    await expect(page.getByLabel('Pays du numéro').inputValue()).resolves.toBe('SN');
    const numberHint = (await page.locator('#number-hint').textContent())?.replace(/\u00a0/g, ' ');
    expect(numberHint).toContain('77 123 45 67 au Sénégal');
    expect(numberHint).not.toContain('07 00');
    await expect(page.locator('#paymentMethod option').nth(1).textContent()).resolves.toBe('Wave');
    await expectAccessibleWithin(page, 360);
    await page.getByLabel('Nom du bénéficiaire').fill('Moussa Ndiaye');
    await page.getByLabel('Opérateur').selectOption({ label: 'Wave' });
    await page.getByLabel('Numéro de téléphone').fill('76 543 21 09');
    await page.getByRole('button', { name: 'Ajouter le contact' }).click();
    await page.waitForURL(/\/dashboard\/contacts\?added=/);
    const contacts = await page.getByTestId('contacts').textContent();
    expect(contacts).toContain('Moussa Ndiaye');
    expect(contacts?.replace(/\s/g, ' ')).toContain('Wave · +221 76 543 21 09');
  });

  it('in English, from an en-GB browser: refused as an Ivorian number, then read in Senegal once chosen', async () => {
    const page = await phones.open({ viewport: { width: 360, height: 640 }, locale: 'en-GB' });
    await page.goto(`${baseUrl}/dashboard/sign-in?lang=en`);
    // No country of the zone in the browser's languages: Côte d'Ivoire, as before.
    await expect(page.getByLabel('Country of the number').inputValue()).resolves.toBe('CI');
    const digits = String(randomInt(0, 10_000_000)).padStart(7, '0');
    const typed = `77 ${digits.slice(0, 3)} ${digits.slice(3, 5)} ${digits.slice(5)}`;
    await page.getByLabel('Phone number').fill(typed);
    await page.getByRole('button', { name: 'Get a code' }).click();
    // Not an Ivorian number: the error says so and offers the country.
    const refusal = (await page.getByRole('alert').textContent())?.replace(/\u00a0/g, ' ');
    expect(refusal).toContain(
      'Enter a valid phone number in Côte d’Ivoire, for example 07 07 12 34 56, or choose the number’s country.',
    );
    await expect(page.getByLabel('Phone number').inputValue()).resolves.toBe(typed);
    await expectAccessibleWithin(page, 360);

    await page.getByLabel('Country of the number').selectOption({ label: 'Senegal' });
    await page.getByRole('button', { name: 'Get a code' }).click();
    await page.waitForURL(`${baseUrl}/dashboard/sign-in/code?lang=en`);
    await finishSignUp(
      page,
      `+22177${digits}`,
      {
        code: '6-digit code',
        continue: 'Continue',
        firstName: 'Your first name',
        lastName: 'Your last name',
        business: 'Business name',
        store: 'Name of your first point of sale',
      },
      'Create my business',
      'Activity',
    );
  });
});
