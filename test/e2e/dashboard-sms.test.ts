import { describe, expect, it, vi } from 'vitest';
import { creditSmsBalance } from '#shared/operations/messages.ts';
import {
  backgroundWorkMs,
  type DashboardBrowser,
  newDashboardPhone,
  signUpOwner,
} from '#test/support/dashboard.ts';
import { expectErrorSummary, itemsOf, memberOf, theLocalHost } from '#test/support/dashboard-setup.ts';

/**
 * The dashboard's SMS page on the local host over real HTTP: the balance, a check step with the
 * text's segments, the send on the balance through the API's message operation (the text reaches
 * the phone, the list shows it with its status), and the refusals: an empty balance (nothing
 * written, nothing charged), a viewer, a forged post, bad fields.
 */
const { baseUrl } = theLocalHost();

/** The messages, their reference claims and the `sms_sent` audit entries of the business. */
const writtenBy = async (businessId: string) => ({
  messages: (await itemsOf(businessId, 'MSG#')).length,
  references: (await itemsOf(businessId, 'MSGREF#')).length,
  audit: (await itemsOf(businessId, 'AUDIT#')).filter((entry) => entry.action === 'sms_sent').length,
});

async function send(browser: DashboardBrowser, form: Record<string, string>) {
  const csrf = await browser.csrfOf('/dashboard/sms');
  return browser.post('/dashboard/sms', { csrf, ...form });
}

/** The page once the message shows `status`, as a person reloading it would see it. */
async function smsPageWhen(browser: DashboardBrowser, status: string) {
  return vi.waitFor(
    async () => {
      const { text } = await browser.get('/dashboard/sms');
      if (!text.includes(`data-status="${status}"`)) throw new Error(`no message ${status} on the page yet`);
      return text;
    },
    { timeout: backgroundWorkMs, interval: 200 },
  );
}

describe('the SMS page', () => {
  it('shows the segments before sending, sends on the balance, and lists the message with its status', async () => {
    const owner = await signUpOwner(baseUrl);
    await creditSmsBalance(owner.businessId, 3);
    expect((await owner.browser.get('/dashboard/sms')).text).toContain('Solde : 3 SMS');

    const to = newDashboardPhone();
    const long = 'Votre commande est prete. '.repeat(7); // 182 GSM characters: two parts
    const check = await send(owner.browser, { to: `0${to.slice(5)}`, body: long });
    expect(check.status).toBe(200);
    expect(check.text).toContain('Coût : 2 SMS');
    expect(await writtenBy(owner.businessId)).toEqual({ messages: 0, references: 0, audit: 0 });

    const sent = await send(owner.browser, {
      to: `0${to.slice(5)}`,
      body: 'Votre commande 42 est prête.',
      confirm: 'yes',
    });
    expect(sent.status, sent.text.slice(0, 300)).toBe(303);
    expect(sent.location).toBe(`${baseUrl}/dashboard/sms`);
    const page = await smsPageWhen(owner.browser, 'delivered');
    expect(page).toContain('Solde : 2 SMS');
    expect(page).toContain('Votre commande 42 est prête.');
    expect(page).toContain('data-status="delivered"');
    expect(await writtenBy(owner.businessId)).toEqual({ messages: 1, references: 1, audit: 1 });
    const inbox = await (await fetch(`${baseUrl}/__local/sms`)).text();
    expect(inbox).toContain(`data-number="${to}"`);
  });

  it('refuses with a clear message on an empty balance: nothing sent, nothing written', async () => {
    const owner = await signUpOwner(baseUrl);
    const form = { to: newDashboardPhone(), body: 'Bonjour' };
    const check = await send(owner.browser, form);
    expect(check.status).toBe(422);
    expect(check.text).toContain('Solde SMS insuffisant');
    expect(check.text).not.toContain('Envoyer le SMS');
    const forced = await send(owner.browser, { ...form, confirm: 'yes' });
    expect(forced.status).toBe(422);
    expect(forced.text).toContain('Rien n’a été envoyé ni débité');
    expect(await writtenBy(owner.businessId)).toEqual({ messages: 0, references: 0, audit: 0 });
  });

  it('names each wrong field (400)', async () => {
    const owner = await signUpOwner(baseUrl);
    await creditSmsBalance(owner.businessId, 1);
    const badPhone = await send(owner.browser, { to: '12', body: 'Bonjour', confirm: 'yes' });
    expectErrorSummary(badPhone, 400, 'to');
    const noBody = await send(owner.browser, { to: newDashboardPhone(), body: '  ', confirm: 'yes' });
    expectErrorSummary(noBody, 400, 'body');
    expect(await writtenBy(owner.businessId)).toEqual({ messages: 0, references: 0, audit: 0 });
  });

  it('lets a viewer see the page but not send (403), and refuses forged posts (403)', async () => {
    const owner = await signUpOwner(baseUrl);
    await creditSmsBalance(owner.businessId, 2);
    const form = { to: newDashboardPhone(), body: 'Bonjour', confirm: 'yes' };
    const viewer = await memberOf(owner, 'viewer');
    const seen = await viewer.get('/dashboard/sms');
    expect(seen.status).toBe(200);
    expect(seen.text).toContain('Solde : 2 SMS');
    expect(seen.text).not.toContain('name="body"');
    expect((await viewer.post('/dashboard/sms', { csrf: await viewer.csrfOf(), ...form })).status).toBe(403);

    const csrf = await owner.browser.csrfOf('/dashboard/sms');
    expect((await owner.browser.post('/dashboard/sms', form)).status).toBe(403);
    expect(
      (await owner.browser.post('/dashboard/sms', { csrf, ...form }, { origin: 'https://attacker.example' }))
        .status,
    ).toBe(403);
    expect(await writtenBy(owner.businessId)).toEqual({ messages: 0, references: 0, audit: 0 });
    expect((await owner.browser.get('/dashboard/sms')).text).toContain('Solde : 2 SMS');
  });
});
