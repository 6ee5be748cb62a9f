import { describe, expect, it } from 'vitest';
import { newDashboardPhone, nextCodeOf, signInCodesOf } from '#test/support/dashboard.ts';
import { expectAccessibleWithin, phonesOfThisFile, theLocalHost } from '#test/support/dashboard-setup.ts';

/**
 * The dashboard's sign-up on a small phone (360 × 640), in French, in Chromium: the forms are
 * posted by the browser itself, so this also proves a real browser sends the Origin the dashboard
 * insists on (which `Referrer-Policy: no-referrer` would have turned into `null`).
 */
const { baseUrl } = theLocalHost();
const phones = phonesOfThisFile();
const smallPhone = () => phones.open({ viewport: { width: 360, height: 640 }, locale: 'fr-CI' });

describe('signing up on the dashboard from a phone', () => {
  it('goes from the phone to a signed-in home page with the new business, then signs out', async () => {
    const page = await smallPhone();
    const phone = newDashboardPhone();
    const digits = phone.slice(6);

    await page.goto(`${baseUrl}/dashboard`);
    expect(page.url()).toBe(`${baseUrl}/dashboard/sign-in`);
    await expect(page.locator('html').getAttribute('lang')).resolves.toBe('fr');
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
      'Continuer avec votre téléphone',
    );
    await expectAccessibleWithin(page, 360);

    // A number typed the local way, with spaces, as people write it.
    await page
      .getByLabel('Numéro de téléphone')
      .fill(`07 ${digits.slice(0, 2)} ${digits.slice(2, 4)} ${digits.slice(4, 6)} ${digits.slice(6)}`);
    await page.getByRole('button', { name: 'Recevoir un code' }).click();
    await page.waitForURL(`${baseUrl}/dashboard/sign-in/code`);
    const code = await nextCodeOf(baseUrl, phone, 0);

    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    await page.getByLabel('Code à 6 chiffres').fill(wrong);
    await page.getByRole('button', { name: 'Continuer' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toContain(
      'Code incorrect. Il vous reste 4 essais.',
    );
    await expect(page.getByLabel('Code à 6 chiffres').getAttribute('aria-invalid')).resolves.toBe('true');
    await expectAccessibleWithin(page, 360);

    await page.getByLabel('Code à 6 chiffres').fill(code);
    await page.getByRole('button', { name: 'Continuer' }).click();
    await page.waitForURL(`${baseUrl}/dashboard/sign-up`);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
      'Créer votre entreprise',
    );
    await expectAccessibleWithin(page, 360);

    // Sent without a name first: the summary names the field and links to it.
    await page.getByRole('button', { name: 'Créer mon entreprise' }).click();
    await expect(
      page
        .getByRole('alert')
        .getByRole('link', { name: /votre prénom/i })
        .getAttribute('href'),
    ).resolves.toBe('#firstName');
    await expectAccessibleWithin(page, 360);

    await page.getByLabel('Votre prénom').fill('Mariam');
    await page.getByLabel('Votre nom').fill('Ouattara');
    await page.getByLabel('Nom de l’entreprise').fill('Salon <Mariam> & Filles');
    await page.getByLabel('Activité').selectOption('commerce.boutique');
    await page.getByLabel('Nom de votre premier point de vente').fill('Treichville');
    await page.getByRole('button', { name: 'Créer mon entreprise' }).click();
    await page.waitForURL(`${baseUrl}/dashboard`);
    await expect(page.getByTestId('business-name').textContent()).resolves.toBe('Salon <Mariam> & Filles');
    await expectAccessibleWithin(page, 360);

    const [session] = (await page.context().cookies(baseUrl)).filter((cookie) => cookie.name === 'session');
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });

    await page.getByRole('button', { name: 'Se déconnecter', exact: true }).click();
    await page.waitForURL(`${baseUrl}/dashboard/sign-in`);
    await page.goto(`${baseUrl}/dashboard`);
    expect(page.url()).toBe(`${baseUrl}/dashboard/sign-in`);
    expect(await signInCodesOf(baseUrl, phone)).toHaveLength(1);
  });

  it('switches to English and keeps it through the steps, the SMS included', async () => {
    const page = await smallPhone();
    await page.goto(`${baseUrl}/dashboard/sign-in`);
    await page.getByRole('link', { name: 'English' }).click();
    await expect(page.locator('html').getAttribute('lang')).resolves.toBe('en');
    const phone = newDashboardPhone();
    await page.getByLabel('Phone number').fill(phone);
    await page.getByRole('button', { name: 'Get a code' }).click();
    await page.waitForURL(`${baseUrl}/dashboard/sign-in/code?lang=en`);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
      'Enter the code we texted you',
    );
    await expectAccessibleWithin(page, 360);
    // The text comes in the page's language too.
    await nextCodeOf(baseUrl, phone, 0);
    await expect((await fetch(`${baseUrl}/__local/sms`)).text()).resolves.toContain(
      'Partner Payments: your code is',
    );
  });

  it('passes axe on a desktop screen too, in English, phone and code steps', async () => {
    const page = await phones.open({ viewport: { width: 1280, height: 800 }, locale: 'en-GB' });
    await page.goto(`${baseUrl}/dashboard/sign-in?lang=en`);
    await expectAccessibleWithin(page, 1280);
    // Sent empty: the error summary is checked too.
    await page.getByRole('button', { name: 'Get a code' }).click();
    await expectAccessibleWithin(page, 1280);
    const phone = newDashboardPhone();
    await page.getByLabel('Phone number').fill(phone);
    await page.getByRole('button', { name: 'Get a code' }).click();
    await page.waitForURL(`${baseUrl}/dashboard/sign-in/code?lang=en`);
    await expectAccessibleWithin(page, 1280);
  });
});
