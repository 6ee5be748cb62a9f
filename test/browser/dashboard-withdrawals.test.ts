import { describe, expect, it } from 'vitest';
import { formatAmount } from '#shared/pages/format.ts';
import { apiClient } from '#test/support/api-client.ts';
import { nextCodeOf, signInCodesOf } from '#test/support/dashboard.ts';
import {
  expectAccessibleWithin,
  expectInFirstScreen,
  phonesOfThisFile,
  shareSession,
  theLocalHost,
  verifiedOwner,
} from '#test/support/dashboard-setup.ts';

/**
 * A new business takes its money out and buys SMS credit alone, in Chromium (issue 34): the owner
 * adds their own Wave number as a payout account with the code the SMS brought, waits out its
 * cooling period (2 s on the test host), withdraws everything available, sets the store's automatic
 * settlement (an hour, an amount kept), then buys 100 SMS from
 * the store's balance on the SMS page. On a 360 × 640 phone in French, then on a 1280 × 800 desktop
 * in English; every page without a serious accessibility violation and no wider than the screen.
 */
const { baseUrl } = theLocalHost();
const call = apiClient(baseUrl);
const phones = phonesOfThisFile();

const words = {
  fr: {
    withdrawals: 'Retirer',
    holder: 'Titulaire du compte',
    operator: 'Opérateur',
    number: 'Numéro',
    addContinue: 'Continuer',
    code: 'Code reçu par SMS',
    confirmAdd: 'Ajouter le compte',
    added: 'Compte ajouté',
    continue: 'Continuer',
    check: 'Vérifiez l’envoi',
    sendButton: (amount: string) => `Envoyer ${amount}`,
    sent: /Retrait enregistré : (en cours|réussi)/,
    pack: /^100 SMS/,
    buyContinue: 'Voir le prix',
    buy: (price: string) => `Acheter pour ${price}`,
    balance: 'Solde : 100 SMS',
    hour: 'Heure (UTC)',
    keep: 'Montant à garder (F CFA)',
    saveAutomatic: 'Enregistrer le versement automatique',
    automaticSaved: 'Versement automatique enregistré',
  },
  en: {
    withdrawals: 'Withdraw',
    holder: 'Account holder',
    operator: 'Operator',
    number: 'Number',
    addContinue: 'Continue',
    code: 'Code sent by SMS',
    confirmAdd: 'Add the account',
    added: 'Account added',
    continue: 'Continue',
    check: 'Check the transfer',
    sendButton: (amount: string) => `Send ${amount}`,
    sent: /Withdrawal recorded: (in progress|succeeded)/,
    pack: /^100 SMS/,
    buyContinue: 'See the price',
    buy: (price: string) => `Buy for ${price}`,
    balance: 'Balance: 100 SMS',
    hour: 'Hour (UTC)',
    keep: 'Amount to keep (F CFA)',
    saveAutomatic: 'Save the automatic settlement',
    automaticSaved: 'Automatic settlement saved',
  },
};

async function withdrawAndBuy(
  viewport: { width: number; height: number },
  locale: string,
  language: 'fr' | 'en',
) {
  const t = words[language];
  const owner = await verifiedOwner(baseUrl, { creditCents: 1_252_500 });
  const page = await phones.open({ viewport, locale });
  await shareSession(page, owner.browser);
  const width = viewport.width;

  await page.goto(`${baseUrl}/dashboard?lang=${language}`);
  await page.getByRole('link', { name: t.withdrawals, exact: true }).click();
  await page.waitForURL(/\/dashboard\/withdrawals/);
  await expectAccessibleWithin(page, width);
  await page.getByLabel(t.holder).fill('Awa Diop');
  await page.getByLabel(t.operator).selectOption('wave');
  await page.getByLabel(t.number, { exact: true }).fill(`0${owner.phone.slice(5)}`);
  const had = (await signInCodesOf(baseUrl, owner.phone)).length;
  await page.getByRole('button', { name: t.addContinue }).last().click();
  await page.getByLabel(t.code).waitFor();
  await expectAccessibleWithin(page, width);
  await page.getByLabel(t.code).fill(await nextCodeOf(baseUrl, owner.phone, had));
  await page.getByRole('button', { name: t.confirmAdd }).click();
  await page.waitForURL(/\/dashboard\/withdrawals\?(?:lang=\w+&)?added=/);
  await expect(page.getByRole('status').first().textContent()).resolves.toContain(t.added);
  await expectAccessibleWithin(page, width);

  // Cooled (2 s): the withdraw form, its button in the first screen.
  await new Promise((resolve) => setTimeout(resolve, 2_500));
  await page.reload();
  const withdraw = page.getByRole('button', { name: t.continue }).first();
  await expectInFirstScreen(withdraw, viewport.height);
  await withdraw.click();
  await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(t.check);
  await expectAccessibleWithin(page, width);
  // Everything available: 12 401 F and its 1 % fee (124 F) make the 12 525 F.
  await expect(page.getByTestId('amount').textContent()).resolves.toBe(formatAmount(1_240_100));
  await expect(page.getByTestId('total').textContent()).resolves.toBe(formatAmount(1_252_500));
  // The button sends what the account receives, not the total debited (issue 35).
  await page.getByRole('button', { name: t.sendButton(formatAmount(1_240_100)) }).click();
  await page.waitForURL(/\/dashboard\/withdrawals\?(?:lang=\w+&)?sent=/);
  await expect(page.getByRole('status').first().textContent()).resolves.toMatch(t.sent);
  await expectAccessibleWithin(page, width);
  const balance = await call('GET', `/partner_api/stores/${owner.storeId}/balance`, owner.headers);
  expect(balance.body).toMatchObject({ amount: 0 });

  // Automatic settlement, at an hour that is not this one (the test host runs it every 2 s).
  await page.getByLabel(t.hour).selectOption(String((new Date().getUTCHours() + 12) % 24));
  await page.getByLabel(t.keep, { exact: true }).fill('5 000');
  await page.getByRole('button', { name: t.saveAutomatic }).click();
  await page.waitForURL(/automatic=on/);
  await expect(page.getByRole('status').first().textContent()).resolves.toContain(t.automaticSaved);
  await expectAccessibleWithin(page, width);
  return { owner, page };
}

async function buyCredit(viewport: { width: number; height: number }, locale: string, language: 'fr' | 'en') {
  const t = words[language];
  const owner = await verifiedOwner(baseUrl, { creditCents: 1_000_000 });
  const page = await phones.open({ viewport, locale });
  await shareSession(page, owner.browser);
  await page.goto(`${baseUrl}/dashboard/sms?lang=${language}`);
  await expectAccessibleWithin(page, viewport.width);
  await page.getByLabel(t.pack).check();
  await page.getByRole('button', { name: t.buyContinue }).click();
  const buy = page.getByRole('button', { name: t.buy(formatAmount(250_000)) });
  await expectInFirstScreen(buy, viewport.height);
  await expectAccessibleWithin(page, viewport.width);
  await buy.click();
  await page.waitForURL(/\/dashboard\/sms/);
  await expect(page.getByTestId('sms-balance').textContent()).resolves.toBe(t.balance);
  await expectAccessibleWithin(page, viewport.width);
}

describe('a new business takes its money out and buys SMS credit on the dashboard', () => {
  it('on a 360 × 640 phone in French', async () => {
    await withdrawAndBuy({ width: 360, height: 640 }, 'fr-SN', 'fr');
    await buyCredit({ width: 360, height: 640 }, 'fr-SN', 'fr');
  });

  it('on a 1280 × 800 desktop in English', async () => {
    await withdrawAndBuy({ width: 1280, height: 800 }, 'en-GB', 'en');
    await buyCredit({ width: 1280, height: 800 }, 'en-GB', 'en');
  });
});
