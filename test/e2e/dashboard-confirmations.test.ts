import { beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '#test/support/api-client.ts';
import {
  type Answer,
  DashboardBrowser,
  followed,
  formFields,
  invitationLinksOf,
  newDashboardPhone,
  signUpOwner,
} from '#test/support/dashboard.ts';
import { memberOf, theLocalHost, verifiedOwner } from '#test/support/dashboard-setup.ts';
import { paymentRequestBody } from '#test/support/paid-payments.ts';

/**
 * Issue 35: every destructive or irreversible action of the dashboard asks first, and says what it
 * did after. On the local host over real HTTP, as a browser without JavaScript: the first tap is a
 * link (a GET) to a confirmation page that changes nothing; that page's button posts the action
 * with the session's token (a post without it, or with a forged one, is refused and changes
 * nothing); the page the post redirects to carries a notice. A new key's secret is shown by a GET
 * after the post, once: a reload makes no second key. A pending invitation is cancelled, and its
 * link no longer lets the phone in.
 */
const { baseUrl } = theLocalHost();
const call = apiClient(baseUrl);

let data: {
  members: typeof import('#shared/data/member.ts');
  invitations: typeof import('#shared/data/invitation.ts');
  contacts: typeof import('#shared/operations/contacts.ts');
};
beforeAll(async () => {
  data = {
    members: await import('#shared/data/member.ts'),
    invitations: await import('#shared/data/invitation.ts'),
    contacts: await import('#shared/operations/contacts.ts'),
  };
});

const unescaped = (text: string) => text.replaceAll('&amp;', '&');

/**
 * The page offers the action (at `path`, with whatever query its links keep) as a link to its
 * confirmation, and no form on it posts the action; the confirmation is a page of its own, whose
 * one form posts the action with the session's token. Returns the action's address, the
 * confirmation and the fields its button sends.
 */
async function asksFirst(browser: DashboardBrowser, page: Answer, path: string) {
  expect(page.status).toBe(200);
  const href = new RegExp(`href="${baseUrl}(${path.replaceAll('?', '\\?')}(?:\\?[^"]*)?)"`).exec(
    page.text,
  )?.[1];
  expect(href, `a link to ${path}`).toBeDefined();
  const action = unescaped(href as string);
  expect(page.text).not.toContain(`action="${baseUrl}${path}`);
  const confirmation = await browser.get(action);
  expect(confirmation.status, confirmation.text.slice(0, 300)).toBe(200);
  expect(confirmation.text).toContain('data-testid="confirmation"');
  expect(confirmation.text).toContain('data-testid="confirm-back"');
  const fields = formFields(confirmation.text, path);
  expect(fields.csrf).toMatch(/^[A-Za-z0-9_-]{43}$/);
  return { action, confirmation, fields };
}

/** The action's post without the session's token, and with a forged one: both refused. */
async function refusesForgedPosts(browser: DashboardBrowser, action: string, fields: Record<string, string>) {
  const { csrf: _, ...rest } = fields;
  expect((await browser.post(action, rest)).status, `${action} without a token`).toBe(403);
  expect((await browser.post(action, { ...rest, csrf: 'x'.repeat(43) })).status, `${action} forged`).toBe(
    403,
  );
}

/** Posts the confirmation's form and follows the 303 to the page that says what was done. */
async function confirm(browser: DashboardBrowser, action: string, fields: Record<string, string>) {
  const posted = await browser.post(action, fields);
  expect(posted.status, posted.text.slice(0, 300)).toBe(303);
  const after = await followed(browser, posted);
  expect(after.status).toBe(200);
  expect(after.text).toContain('data-testid="notice"');
  return after;
}

describe('a new API key (post, then redirect)', () => {
  it('shows its secret once on the page the post redirects to; a reload makes no second key and shows it no more', async () => {
    const owner = await signUpOwner(baseUrl);
    const csrf = await owner.browser.csrfOf('/dashboard/api-keys');
    const posted = await owner.browser.post('/dashboard/api-keys', {
      csrf,
      name: 'Caisse',
      kind: 'merchant',
    });
    expect(posted.status).toBe(303);
    expect(posted.text).not.toContain('key-secret');
    const location = new URL(posted.location ?? '');
    expect(location.pathname).toBe('/dashboard/api-keys');

    const shown = await owner.browser.get(`${location.pathname}${location.search}`);
    expect(shown.status).toBe(200);
    const keyId = /id="key-id" name="key-id" value="([^"]+)"/.exec(shown.text)?.[1] ?? '';
    const secret = /id="key-secret" name="key-secret" value="([^"]+)"/.exec(shown.text)?.[1] ?? '';
    expect(keyId).toBe(location.searchParams.get('created'));
    expect(secret.length).toBeGreaterThan(20);

    // Another session of the same person, given the same address, opens nothing.
    const elsewhere = new DashboardBrowser(baseUrl);
    await elsewhere.signInWith(owner.phone);
    const stolen = await elsewhere.get(`${location.pathname}${location.search}`);
    expect(stolen.status).toBe(200);
    expect(stolen.text).not.toContain(secret);

    for (const _ of [1, 2]) {
      const reloaded = await owner.browser.get(`${location.pathname}${location.search}`);
      expect(reloaded.status).toBe(200);
      expect(reloaded.text).not.toContain(secret);
      expect(reloaded.text).toContain('n’est affichée qu’une fois');
      expect([...reloaded.text.matchAll(/data-key-id="([^"]+)"/g)].map((match) => match[1])).toEqual([keyId]);
    }
  });
});

describe('asking first, then saying what was done', () => {
  it('removes a contact only from its confirmation', async () => {
    const owner = await signUpOwner(baseUrl);
    const added = await owner.browser.post('/dashboard/contacts', {
      csrf: await owner.browser.csrfOf('/dashboard/contacts'),
      name: 'Kouassi Yao',
      paymentMethod: 'orange',
      number: '07 00 00 00 01',
    });
    expect(added.status, added.text.slice(0, 300)).toBe(303);
    const page = await owner.browser.get('/dashboard/contacts');
    const contactId = /data-contact-id="([^"]+)"/.exec(page.text)?.[1] ?? '';
    const { action, confirmation, fields } = await asksFirst(
      owner.browser,
      page,
      `/dashboard/contacts/${contactId}/remove`,
    );
    expect(confirmation.text).toContain('Supprimer ce contact ?');
    expect(confirmation.text).toContain('Kouassi Yao');
    await refusesForgedPosts(owner.browser, action, fields);
    const caller = { businessId: owner.businessId } as Parameters<typeof data.contacts.contactsOf>[0];
    expect((await data.contacts.contactsOf(caller)).map((contact) => contact.id)).toEqual([contactId]);

    const after = await confirm(owner.browser, action, fields);
    expect(after.text).toContain('Contact supprimé.');
    expect(await data.contacts.contactsOf(caller)).toEqual([]);
    expect((await owner.browser.get(action)).status).toBe(404);
  });

  it('removes a member only from its confirmation, in English too', async () => {
    const owner = await signUpOwner(baseUrl);
    await memberOf(owner, 'viewer');
    const page = await owner.browser.get('/dashboard/team?lang=en');
    const members = await data.members.listMembers(owner.businessId);
    const viewer = members.find((member) => member.role === 'viewer');
    const { action, confirmation, fields } = await asksFirst(
      owner.browser,
      page,
      `/dashboard/team/members/${viewer?.id}/remove`,
    );
    expect(action).toContain('lang=en');
    expect(confirmation.text).toContain(`Remove ${viewer?.name} from the team?`);
    expect(confirmation.text).toContain('No, go back');
    await refusesForgedPosts(owner.browser, action, fields);
    expect(await data.members.listMembers(owner.businessId)).toHaveLength(2);

    const after = await confirm(owner.browser, action, fields);
    expect(after.text).toContain('The member was removed from the business');
    expect((await data.members.listMembers(owner.businessId)).map((member) => member.role)).toEqual([
      'owner',
    ]);
  });

  it('cancels a pending payment request only from its confirmation, which is not the first thing on its page', async () => {
    const owner = await verifiedOwner(baseUrl);
    const body = paymentRequestBody(owner.storeId, 'wave', 120_000);
    const created = await call('POST', '/partner_api/payment_requests', owner.headers, body);
    expect(created.status).toBe(200);
    const id = created.body.id as string;
    const page = await owner.browser.get(`/dashboard/transactions/${id}`);
    // The details first; the cancellation after them, a link styled as a secondary button.
    expect(page.text.indexOf('data-testid="reference"')).toBeGreaterThan(0);
    expect(page.text.indexOf('id="cancel"')).toBeGreaterThan(page.text.indexOf('data-testid="reference"'));
    expect(page.text).not.toContain('button button-decline');
    const { action, confirmation, fields } = await asksFirst(
      owner.browser,
      page,
      `/dashboard/transactions/${id}/cancel`,
    );
    expect(confirmation.text).toContain('Annuler cette demande de paiement ?');
    expect(confirmation.text).toContain('ne peut pas être rétablie');
    await refusesForgedPosts(owner.browser, action, fields);
    const pending = await call('GET', `/partner_api/payment_requests/${id}`, owner.headers);
    expect(pending.body).toMatchObject({ status: 'pending' });

    const after = await confirm(owner.browser, action, fields);
    expect(after.text).toContain('La demande de paiement a été annulée');
    const cancelled = await call('GET', `/partner_api/payment_requests/${id}`, owner.headers);
    expect(cancelled.body).toMatchObject({ status: 'error', errorReason: 'cancelled' });
    // Ended: nothing left to ask; the page says why.
    expect((await owner.browser.get(action)).status).toBe(409);
  }, 120_000);
});

describe('invitations', () => {
  it('says to whom an invitation went; a pending one is cancelled from its confirmation, and its link no longer lets the phone in', async () => {
    const owner = await signUpOwner(baseUrl);
    const phone = newDashboardPhone();
    const invited = await owner.browser.post('/dashboard/team/invitations', {
      csrf: await owner.browser.csrfOf('/dashboard/team'),
      firstName: 'Kofi',
      lastName: 'Mensah',
      phone,
      role: 'viewer',
    });
    expect(invited.status).toBe(303);
    const team = await followed(owner.browser, invited);
    expect(team.text).toMatch(/Invitation envoyée à Kofi Mensah \([^)]+\) par SMS/);
    const [invitation] = await data.invitations.invitationsOfBusiness(owner.businessId);
    const invitationId = data.invitations.invitationIdOf(
      invitation as Parameters<typeof data.invitations.invitationIdOf>[0],
    );
    expect(new URL(invited.location ?? '').searchParams.get('invited')).toBe(invitationId);
    // The phone is in no address.
    expect(invited.location).not.toContain(phone.slice(4));

    const { action, confirmation, fields } = await asksFirst(
      owner.browser,
      team,
      `/dashboard/team/invitations/${invitationId}/cancel`,
    );
    expect(confirmation.text).toContain('Annuler cette invitation ?');
    await refusesForgedPosts(owner.browser, action, fields);
    // Another business's owner can neither see nor cancel it.
    const stranger = await signUpOwner(baseUrl);
    expect((await stranger.browser.get(action)).status).toBe(404);
    const strangerCsrf = await stranger.browser.csrfOf('/dashboard/team');
    expect((await stranger.browser.post(action, { csrf: strangerCsrf })).status).toBe(404);
    expect(await data.invitations.invitationsOfBusiness(owner.businessId)).toHaveLength(1);

    const after = await confirm(owner.browser, action, fields);
    expect(after.text).toContain('L’invitation a été annulée');
    expect(after.text).not.toContain('data-invitation-id');
    expect(await data.invitations.invitationsOfBusiness(owner.businessId)).toEqual([]);
    expect((await owner.browser.get(action)).status).toBe(404);

    // The SMS's link no longer lets the phone in: signing in with it leads to a sign-up of its own.
    const [link] = await invitationLinksOf(baseUrl, phone);
    const invitee = new DashboardBrowser(baseUrl);
    expect((await invitee.get(new URL(link as string).pathname)).status).toBe(200);
    const signedIn = await invitee.signInWith(phone);
    expect(signedIn.location).toBe(`${baseUrl}/dashboard/sign-up`);
    expect((await data.members.listMembers(owner.businessId)).map((member) => member.role)).toEqual([
      'owner',
    ]);
    const audit = await owner.browser.get('/dashboard/audit?action=invitation_cancelled');
    expect(audit.text).toContain('data-action="invitation_cancelled"');
  });
});
