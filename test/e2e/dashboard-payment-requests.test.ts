import { describe, expect, it } from 'vitest';
import { creditSmsBalance } from '#shared/operations/messages.ts';
import { type DashboardBrowser, newDashboardPhone, signUpOwner, textsOf } from '#test/support/dashboard.ts';
import {
  expectErrorSummary,
  itemsOf,
  memberOf,
  theLocalHost,
  verifyFirstLevel,
} from '#test/support/dashboard-setup.ts';

/**
 * "Ask for a payment" on the local host over real HTTP, as a browser without JavaScript uses it:
 * the check step shows the text and its SMS cost, the ask makes a payment request whose hosted
 * page the payer gets by SMS (one segment off the balance), and its page follows the request. An
 * empty balance refuses before anything is written; forged posts, a viewer's post, bad fields and
 * another business's request change nothing.
 */
const { baseUrl } = theLocalHost();

/** What an ask writes in the business's partition: the reference's claim, the SMS, the ask, the audit entry. */
async function writtenBy(businessId: string) {
  const [claims, messages, asks, audit] = await Promise.all([
    itemsOf(businessId, 'PAYREF#'),
    itemsOf(businessId, 'MSG#'),
    itemsOf(businessId, 'ASKED#'),
    itemsOf(businessId, 'AUDIT#'),
  ]);
  return {
    claims: claims.length,
    messages: messages.length,
    asks: asks.length,
    asked: audit.filter((entry) => entry.action === 'payment_requested').length,
  };
}

async function ask(browser: DashboardBrowser, form: Record<string, string>) {
  const page = await browser.get('/dashboard/payment-requests');
  const csrf = /name="csrf" value="([^"]+)"/.exec(page.text)?.[1] ?? '';
  const storeId = /name="storeId" value="([^"]+)"/.exec(page.text)?.[1] ?? '';
  return browser.post('/dashboard/payment-requests', { csrf, storeId, note: '', ...form });
}

describe('asking for a payment on the dashboard', () => {
  it('checks, then makes the request and texts its hosted page to the payer on the SMS balance', async () => {
    const owner = await signUpOwner(baseUrl);
    await Promise.all([creditSmsBalance(owner.businessId, 3), verifyFirstLevel(owner.businessId)]);
    const payer = newDashboardPhone();
    const national = `0${payer.slice(5)}`; // +22507… read in the store's country, Côte d'Ivoire

    const form = { amount: '1 500', payerPhone: national, note: 'Commande 42' };
    const check = await ask(owner.browser, form);
    expect(check.status, check.text.slice(0, 300)).toBe(200);
    expect(check.text).toContain('Vérifiez la demande');
    expect(check.text).toMatch(/1\s500\sF\sCFA/);
    // `ï` is not in the GSM alphabet: the text goes as UCS-2, two parts.
    expect(check.text).toContain('Coût : 2 SMS');
    expect(check.text).toContain('Maquis Aïcha vous demande 1 500 F CFA (Commande 42). Payez ici : ');
    expect(await writtenBy(owner.businessId)).toEqual({ claims: 0, messages: 0, asks: 0, asked: 0 });

    const asked = await ask(owner.browser, { ...form, confirm: 'yes' });
    expect(asked.status, asked.text.slice(0, 300)).toBe(303);
    const id = /\/dashboard\/payment-requests\/([0-9a-f-]{36})$/.exec(asked.location ?? '')?.[1] ?? '';
    expect(id).not.toBe('');
    expect(await writtenBy(owner.businessId)).toEqual({ claims: 1, messages: 1, asks: 1, asked: 1 });

    const [sms] = await textsOf(baseUrl, payer, 1);
    expect(sms).toBe(
      `Maquis Aïcha vous demande 1 500 F CFA (Commande 42). Payez ici : ${baseUrl}/payment/${id}`,
    );

    // The hosted page is the API's: the payer's number and the note are on it.
    const hosted = await (await fetch(`${baseUrl}/payment/${id}`)).text();
    expect(hosted).toContain('Commande 42');

    const page = await owner.browser.get(`/dashboard/payment-requests/${id}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('data-status="pending"');
    expect(page.text).toContain('data-poll=');
    expect(page.text).toContain('Actualiser');

    const list = await owner.browser.get('/dashboard/payment-requests');
    expect(list.text).toContain(`data-request-id="${id}"`);
    expect(list.text).toContain('Solde SMS : 1 SMS.');

    const sms2 = await owner.browser.get('/dashboard/sms');
    expect(sms2.text).toContain(`${baseUrl}/payment/${id}`);
  });

  it('refuses with a clear message on an empty SMS balance, and writes nothing', async () => {
    const owner = await signUpOwner(baseUrl);
    const form = { amount: '2000', payerPhone: newDashboardPhone() };
    const check = await ask(owner.browser, form);
    expect(check.status).toBe(422);
    expect(check.text).toContain('Solde SMS insuffisant');
    expect(check.text).not.toContain('Envoyer la demande par SMS');
    const forced = await ask(owner.browser, { ...form, confirm: 'yes' });
    expect(forced.status).toBe(422);
    expect(forced.text).toContain('Rien n’a été créé ni débité');
    expect(await writtenBy(owner.businessId)).toEqual({ claims: 0, messages: 0, asks: 0, asked: 0 });
  });

  it('names each wrong field (400) and writes nothing', async () => {
    const owner = await signUpOwner(baseUrl);
    await creditSmsBalance(owner.businessId, 2);
    const badAmount = await ask(owner.browser, {
      amount: '1,5',
      payerPhone: newDashboardPhone(),
      confirm: 'yes',
    });
    expectErrorSummary(badAmount, 400, 'amount');
    expect(badAmount.text).toContain('id="amount-error"');
    const badPhone = await ask(owner.browser, { amount: '1500', payerPhone: '12345', confirm: 'yes' });
    expectErrorSummary(badPhone, 400, 'payerPhone');
    expect(badPhone.text).toContain('Saisissez un numéro de mobile valide');
    // Guinea-Bissau's numbers are valid, but no provider of the service takes money there.
    const unserved = await ask(owner.browser, {
      amount: '1500',
      payerPhone: '+245955123456',
      confirm: 'yes',
    });
    expectErrorSummary(unserved, 400, 'payerPhone');
    // Level 0 may collect nothing: the month's ceiling refuses the request, before its SMS.
    const ceiling = await ask(owner.browser, {
      amount: '1500',
      payerPhone: newDashboardPhone(),
      confirm: 'yes',
    });
    expectErrorSummary(ceiling, 422, 'amount');
    expect(ceiling.text).toContain('peut encore encaisser ce mois-ci');
    expect(await writtenBy(owner.businessId)).toEqual({ claims: 0, messages: 0, asks: 0, asked: 0 });
  });

  it('refuses a viewer’s post, a post without the token and one from another site (403), writing nothing', async () => {
    const owner = await signUpOwner(baseUrl);
    await creditSmsBalance(owner.businessId, 2);
    const storeId = /name="storeId" value="([^"]+)"/.exec(
      (await owner.browser.get('/dashboard/payment-requests')).text,
    )?.[1] as string;
    const form = { storeId, amount: '1500', payerPhone: newDashboardPhone(), note: '', confirm: 'yes' };

    const viewer = await memberOf(owner, 'viewer');
    const seen = await viewer.get('/dashboard/payment-requests');
    expect(seen.status).toBe(200);
    expect(seen.text).not.toContain('name="amount"');
    const csrf = await viewer.csrfOf();
    expect((await viewer.post('/dashboard/payment-requests', { csrf, ...form })).status).toBe(403);

    const ownerCsrf = await owner.browser.csrfOf('/dashboard/payment-requests');
    expect((await owner.browser.post('/dashboard/payment-requests', form)).status).toBe(403);
    const forged = await owner.browser.post(
      '/dashboard/payment-requests',
      { csrf: ownerCsrf, ...form },
      { origin: 'https://attacker.example' },
    );
    expect(forged.status).toBe(403);
    expect(await writtenBy(owner.businessId)).toEqual({ claims: 0, messages: 0, asks: 0, asked: 0 });
  });

  it('another business’s request is 404, as is an id that is none', async () => {
    const a = await signUpOwner(baseUrl);
    await Promise.all([creditSmsBalance(a.businessId, 2), verifyFirstLevel(a.businessId)]);
    const asked = await ask(a.browser, { amount: '500', payerPhone: newDashboardPhone(), confirm: 'yes' });
    expect(asked.status).toBe(303);
    const path = new URL(asked.location ?? '').pathname;
    const b = await signUpOwner(baseUrl);
    expect((await b.browser.get(path)).status).toBe(404);
    expect((await b.browser.get('/dashboard/payment-requests/not-an-id')).status).toBe(404);
    expect((await a.browser.get(path)).status).toBe(200);
    expect((await b.browser.get('/dashboard/payment-requests')).text).not.toContain(path.split('/').pop());
  });
});
