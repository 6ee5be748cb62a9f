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
import { paidPayment } from '#test/support/paid-payments.ts';

/**
 * Send money on the dashboard, in Chromium: a shop owner whose store was paid adds a contact,
 * sends it more than the default threshold (100 000 F CFA), types the code the SMS brought, and
 * sees the transfer in the list with its status, the API showing the same amount. On a 360 × 640
 * phone in French, then on a 1280 × 800 desktop in English; every page without a serious
 * accessibility violation and no wider than the screen.
 */
const { config, baseUrl } = theLocalHost();
const call = apiClient(baseUrl);
const phones = phonesOfThisFile();

/** A verified owner whose store was paid 500 000 F CFA, signed in in a browser of that size. */
async function paidOwnerIn(viewport: { width: number; height: number }, locale: string) {
  const owner = await verifiedOwner(baseUrl);
  await paidPayment(config, owner.headers, {
    storeId: owner.storeId,
    amountCents: 50_000_000,
    paymentMethod: 'wave',
    payerPhone: '+2250700000001',
  });
  const page = await phones.open({ viewport, locale });
  await shareSession(page, owner.browser);
  return { ...owner, page };
}

const words = {
  fr: {
    contacts: 'Contacts',
    name: 'Nom du bénéficiaire',
    operator: 'Opérateur',
    number: 'Numéro de téléphone',
    add: 'Ajouter le contact',
    send: 'Envoyer de l’argent',
    sendTo: (name: string) => `Envoyer de l’argent à ${name}`,
    amount: 'Montant en F CFA',
    continue: 'Continuer',
    check: 'Vérifiez l’envoi',
    code: 'Code envoyé par SMS',
    sendButton: (amount: string) => `Envoyer ${amount}`,
    sent: /Transfert enregistré : (en cours|réussi)/,
    status: /en cours|réussi/,
  },
  en: {
    contacts: 'Contacts',
    name: 'Beneficiary’s name',
    operator: 'Operator',
    number: 'Phone number',
    add: 'Add the contact',
    send: 'Send money',
    sendTo: (name: string) => `Send money to ${name}`,
    amount: 'Amount in F CFA',
    continue: 'Continue',
    check: 'Check the transfer',
    code: 'Code sent by SMS',
    sendButton: (amount: string) => `Send ${amount}`,
    sent: /Transfer recorded: (pending|successful)/,
    status: /pending|successful/,
  },
};

async function sendAboveThreshold(
  viewport: { width: number; height: number },
  locale: string,
  language: 'fr' | 'en',
) {
  const t = words[language];
  const owner = await paidOwnerIn(viewport, locale);
  const { page } = owner;
  const width = viewport.width;

  // The send-money page: its primary action inside the first screen.
  await page.goto(`${baseUrl}/dashboard/transfers`);
  await expectAccessibleWithin(page, width);
  await expectInFirstScreen(page.locator('a.button', { hasText: t.send }), viewport.height);

  await page.getByRole('link', { name: t.contacts, exact: true }).click();
  await page.waitForURL(/\/dashboard\/contacts/);
  await expectAccessibleWithin(page, width);
  await page.getByLabel(t.name).fill('Fatou Diallo');
  await page.getByLabel(t.operator).selectOption('orange');
  await page.getByLabel(t.number).fill('07 00 00 00 01');
  await page.getByRole('button', { name: t.add }).click();
  await page.waitForURL(/\/dashboard\/contacts\?added=/);
  await expectAccessibleWithin(page, width);

  await page.getByRole('link', { name: t.sendTo('Fatou Diallo') }).click();
  await page.waitForURL(/\/dashboard\/transfers\/new/);
  await expectAccessibleWithin(page, width);
  await expectInFirstScreen(page.getByRole('button', { name: t.continue }), viewport.height);
  await page.getByLabel(t.amount).fill('150 000');
  const had = (await signInCodesOf(baseUrl, owner.phone)).length;
  await page.getByRole('button', { name: t.continue }).click();
  await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(t.check);
  await expectAccessibleWithin(page, width);
  // 1 % payout fee: 1 500 F, and the store debited 151 500 F.
  await expect(page.getByTestId('fee').textContent()).resolves.toBe(formatAmount(150_000));
  await expect(page.getByTestId('total').textContent()).resolves.toBe(formatAmount(15_150_000));

  // The beneficiary receives 150 000 F: the button sends that, not the total debited (issue 35).
  await expect(page.getByTestId('amount').textContent()).resolves.toBe(formatAmount(15_000_000));
  await expectInFirstScreen(
    page.getByRole('button', { name: t.sendButton(formatAmount(15_000_000)) }),
    viewport.height,
  );
  await page.getByLabel(t.code).fill(await nextCodeOf(baseUrl, owner.phone, had));
  await page.getByRole('button', { name: t.sendButton(formatAmount(15_000_000)) }).click();
  await page.waitForURL(/\/dashboard\/transfers\?(?:lang=\w+&)?sent=/);
  await expectAccessibleWithin(page, width);
  await expect(page.getByRole('status').first().textContent()).resolves.toMatch(t.sent);
  const transferId = /sent=([0-9a-f-]{36})/.exec(page.url())?.[1] ?? '';
  const item = page.locator(`[data-transfer-id="${transferId}"]`);
  await expect(item.textContent()).resolves.toContain('Fatou Diallo');
  await expect(item.locator('[data-status]').textContent()).resolves.toMatch(t.status);

  const viaApi = await call('GET', `/partner_api/transfers/${transferId}`, owner.headers);
  expect(viaApi.body).toMatchObject({
    amount: { amount: 15_000_000 },
    fees: { amount: 150_000 },
    beneficiaryName: 'Fatou Diallo',
  });
}

describe('send money on the dashboard', () => {
  it('on a 360 × 640 phone in French: a contact added, sent 150 000 F CFA with the SMS code, listed with its status', async () => {
    await sendAboveThreshold({ width: 360, height: 640 }, 'fr-CI', 'fr');
  });

  it('on a 1280 × 800 desktop in English: the same', async () => {
    await sendAboveThreshold({ width: 1280, height: 800 }, 'en-GB', 'en');
  });
});
