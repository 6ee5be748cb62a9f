import { describe, expect, it, vi } from 'vitest';
import { reconciliationLines } from '#shared/domain/statement.ts';
import { formatAmount } from '#shared/pages/format.ts';
import { apiClient } from '#test/support/api-client.ts';
import { backgroundWorkMs, DashboardBrowser, newDashboardPhone } from '#test/support/dashboard.ts';
import { theLocalHost, verifiedOwner } from '#test/support/dashboard-setup.ts';
import { paidPayment, paymentRequestBody, payThroughLink } from '#test/support/paid-payments.ts';

/**
 * The dashboard's words and figures a shop owner reads (issue 35), on the local host over HTTP:
 * the home's reconciliation adds up, each end of a payment has its own word, one date style, real
 * plurals, French's elision, a short title taken, and a search that finds names and link titles.
 */
const { config, baseUrl } = theLocalHost();
const call = apiClient(baseUrl);
const payer = '+2250700000017';

const rowIds = (text: string) =>
  [...text.matchAll(/data-transaction-id="([^"]+)"/g)].map((match) => match[1]);
const typesOf = (text: string) => [...text.matchAll(/data-type="([^"]+)"/g)].map((match) => match[1]);
/** The cents a page's reconciliation shows, by test id. */
const cents = (text: string, testId: string) =>
  [...text.matchAll(new RegExp(`data-testid="${testId}" data-cents="(-?\\d+)"`, 'g'))].map((m) =>
    Number(m[1]),
  );

/** Money sent through the API to a beneficiary named with an accent, paid back by the sandbox. */
async function sendToAminata(
  owner: { headers: Record<string, string>; storeId: string },
  amountCents: number,
) {
  const sent = await call('POST', '/partner_api/transfers', owner.headers, {
    storeId: owner.storeId,
    amountCents,
    currency: 'XOF',
    name: 'Aminata Koné',
    paymentMethod: 'wave',
    identifier: { number: payer },
  });
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  return sent;
}

describe('the dashboard’s words and figures', () => {
  it('reconciles the home’s money: each period’s lines add up to its change in balance, to the franc', async () => {
    const owner = await verifiedOwner(baseUrl, { creditCents: 1_000_000 });
    await paidPayment(config, owner.headers, {
      storeId: owner.storeId,
      amountCents: 250_000,
      paymentMethod: 'wave',
      payerPhone: payer,
    });
    const sent = await sendToAminata(owner, 100_000);
    await vi.waitFor(
      async () => {
        const transfer = await call('GET', `/partner_api/transfers/${sent.body.id}`, owner.headers);
        expect(transfer.body.status).toBe('success');
      },
      { timeout: backgroundWorkMs, interval: 500 },
    );
    const balance = (await call('GET', `/partner_api/stores/${owner.storeId}/balance`, owner.headers)).body
      .amount as number;

    const home = await owner.browser.get('/dashboard');
    expect(home.status).toBe(200);
    for (const period of ['today', 'last-days']) {
      const [opening] = cents(home.text, `${period}-opening`);
      const [change] = cents(home.text, `${period}-change`);
      const [closing] = cents(home.text, `${period}-closing`);
      const lines = reconciliationLines.flatMap((line) => cents(home.text, `${period}-line-${line}`));
      expect(lines.reduce((sum, line) => sum + line, 0)).toBe(change);
      expect((opening as number) + (change as number)).toBe(closing);
      // Nothing held or reserved: the closing balance is the one the API gives.
      expect(closing).toBe(balance);
    }
    // A new business: its window opens at zero; the fees are shown, below zero.
    expect(cents(home.text, 'last-days-opening')).toEqual([0]);
    expect(cents(home.text, 'today-line-collected')).toEqual([250_000]);
    expect(cents(home.text, 'today-line-fees')[0]).toBeLessThan(0);
    expect(home.text).toContain('Frais');
  }, 180_000);

  it('names a cancelled payment Annulé, dates it one way, counts keys with real plurals, and takes “Boubou” as a title', async () => {
    const owner = await verifiedOwner(baseUrl);
    const created = await call(
      'POST',
      '/partner_api/payment_requests',
      owner.headers,
      paymentRequestBody(owner.storeId, 'wave', 120_000),
    );
    expect(created.status).toBe(200);
    const cancelled = await call(
      'POST',
      `/partner_api/payment_requests/${created.body.id}/cancel`,
      owner.headers,
      {},
    );
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBeLessThan(300);

    const list = await vi.waitFor(
      async () => {
        const page = await owner.browser.get('/dashboard/transactions');
        expect(page.text).toContain('data-status="error"');
        return page.text;
      },
      { timeout: backgroundWorkMs, interval: 500 },
    );
    expect(list).toContain('Annulé');
    expect(list).not.toContain('Échoué');
    expect(list).toMatch(/\d{2}\/\d{2}\/20\d{2} à \d{2}:\d{2}/);
    expect(list).not.toMatch(/UTC\+0|GMT\+0|\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);
    const english = await owner.browser.get('/dashboard/transactions?lang=en');
    expect(english.text).toContain('Cancelled');
    expect(english.text).toMatch(/\d{2}\/\d{2}\/20\d{2} at \d{2}:\d{2}/);
    const home = await owner.browser.get('/dashboard');
    expect(home.text).toContain('Annulé');

    // The owner made one key (verifiedOwner's): one, in the singular.
    const keys = await owner.browser.get('/dashboard/api-keys');
    expect(keys.text).toMatch(/1 clé active sur \d+ au plus/);
    expect(keys.text).not.toContain('(s)');
    expect(keys.text).toMatch(/\d{2}\/\d{2}\/20\d{2} à \d{2}:\d{2}/);
    expect(keys.text).not.toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);
    expect((await owner.browser.get('/dashboard/api-keys?lang=en')).text).toMatch(
      /1 active key of \d+ at most/,
    );

    // A title of one word is a title.
    const csrf = await owner.browser.csrfOf('/dashboard/payment-links/new');
    const made = await owner.browser.post('/dashboard/payment-links', {
      csrf,
      storeId: owner.storeId,
      title: 'Boubou',
      amount: '15 000',
    });
    expect(made.status, made.text.slice(0, 400)).toBe(303);
    expect((await owner.browser.get('/dashboard/payment-links')).text).toContain('Boubou');
  }, 180_000);

  it('elides French’s “de” before a member whose name starts with a vowel: Rôle d’Aminata', async () => {
    const owner = await verifiedOwner(baseUrl);
    const phone = newDashboardPhone();
    const invited = await owner.browser.post('/dashboard/team/invitations', {
      csrf: await owner.browser.csrfOf('/dashboard/team'),
      firstName: 'Aminata',
      lastName: 'Diallo',
      phone,
      role: 'viewer',
    });
    expect(invited.status, invited.text.slice(0, 400)).toBe(303);
    const member = new DashboardBrowser(baseUrl);
    expect((await member.signInWith(phone)).location).toBe(`${baseUrl}/dashboard`);
    // A pending invitation: until when, in the one date style; cancelled “d’Ousmane”.
    const pending = await owner.browser.post('/dashboard/team/invitations', {
      csrf: await owner.browser.csrfOf('/dashboard/team'),
      firstName: 'Ousmane',
      lastName: 'Ba',
      phone: newDashboardPhone(),
      role: 'viewer',
    });
    expect(pending.status, pending.text.slice(0, 400)).toBe(303);
    const team = await owner.browser.get('/dashboard/team');
    expect(team.text).toContain('Rôle d’Aminata Diallo');
    expect(team.text).not.toContain('Rôle de Aminata');
    expect(team.text).toMatch(/valable jusqu’au \d{2}\/\d{2}\/20\d{2} à \d{2}:\d{2}/);
    expect(team.text).toContain('l’invitation d’Ousmane Ba');
    expect(team.text).not.toMatch(/jusqu’au 20\d{2}-/);
  }, 120_000);

  it('finds lines by a beneficiary’s name and a payment link’s title, whatever the case', async () => {
    const owner = await verifiedOwner(baseUrl, { creditCents: 1_000_000 });
    await sendToAminata(owner, 50_000);
    const link = await call('POST', '/partner_api/payment_links', owner.headers, {
      storeId: owner.storeId,
      title: 'Boubou brodé bleu ciel',
      amountCents: 150_000,
    });
    expect(link.status, JSON.stringify(link.body)).toBe(200);
    await payThroughLink(baseUrl, link.body.id as string);
    await paidPayment(config, owner.headers, {
      storeId: owner.storeId,
      amountCents: 70_000,
      paymentMethod: 'wave',
      payerPhone: payer,
    });
    await vi.waitFor(
      async () => {
        const page = await owner.browser.get('/dashboard/transactions');
        expect(rowIds(page.text)).toHaveLength(3);
      },
      { timeout: backgroundWorkMs, interval: 500 },
    );

    const search = async (q: string) => {
      const page = await owner.browser.get(`/dashboard/transactions?q=${encodeURIComponent(q)}`);
      expect(page.status).toBe(200);
      return page.text;
    };
    for (const q of ['aminata', 'Koné', 'KON']) {
      const found = await search(q);
      expect(typesOf(found), q).toEqual(['transfer']);
    }
    for (const q of ['boubou', 'Bleu ciel', 'BRODE']) {
      const found = await search(q);
      expect(typesOf(found), q).toEqual(['payment']);
      expect(found).toContain(formatAmount(150_000));
    }
    expect(rowIds(await search('personne'))).toEqual([]);
  }, 180_000);
});
