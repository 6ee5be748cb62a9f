import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Invitation } from '#shared/data/invitation.ts';
import {
  DashboardBrowser,
  invitationLinksOf,
  newDashboardPhone,
  signInCodesOf,
  signUpOwner,
} from '#test/support/dashboard.ts';
import {
  apiKeyOf,
  expectErrorSummary,
  theLocalHost,
  untilTheApiLetsIn,
} from '#test/support/dashboard-setup.ts';

/**
 * The dashboard's team, businesses and identity check on the local host over real HTTP, as a
 * browser without JavaScript uses them. Every refusal is a hand-made post (the buttons are not
 * even shown to whom they would refuse), and each is followed by a look at what is stored: a
 * refused post changes nothing.
 */
const { dataDir, baseUrl } = theLocalHost();
const hostile = '<img src=x onerror=alert(1)>';

let data: {
  members: typeof import('#shared/data/member.ts');
  invitations: typeof import('#shared/data/invitation.ts');
  business: typeof import('#shared/data/business.ts');
};
beforeAll(async () => {
  data = {
    members: await import('#shared/data/member.ts'),
    invitations: await import('#shared/data/invitation.ts'),
    business: await import('#shared/data/business.ts'),
  };
});

/** A new owner through the whole sign-up, signed in, with markup in their names. */
const signedUpOwner = (businessName = `Maquis ${hostile}`) =>
  signUpOwner(baseUrl, {
    firstName: 'Aïcha',
    lastName: `Traoré ${hostile}`,
    businessName,
    activityId: 'commerce.boutique',
    storeName: 'Cocody',
  });

async function invite(browser: DashboardBrowser, phone: string, role: string, names = ['Kofi', 'Mensah']) {
  return browser.post('/dashboard/team/invitations', {
    csrf: await browser.csrfOf('/dashboard/team'),
    firstName: names[0] as string,
    lastName: names[1] as string,
    phone,
    role,
  });
}

/** Invites a new phone with `role`; the invitee follows the SMS link and signs in with their code. */
async function invitedMember(owner: DashboardBrowser, role: string, phone = newDashboardPhone()) {
  expect((await invite(owner, phone, role, ['Kofi', `Mensah ${hostile}`])).status).toBe(303);
  const [link] = await invitationLinksOf(baseUrl, phone);
  expect(link).toBe(`${baseUrl}/dashboard/sign-in?lang=fr`);
  const browser = new DashboardBrowser(baseUrl);
  expect((await browser.get(new URL(link as string).pathname)).status).toBe(200);
  const signedIn = await browser.signInWith(phone);
  expect(signedIn.location).toBe(`${baseUrl}/dashboard`);
  return { browser, phone };
}

const memberIdsOf = (page: string) =>
  [...page.matchAll(/data-member-id="([^"]+)"/g)].map((m) => m[1] as string);
const teamOf = async (businessId: string) =>
  (await data.members.listMembers(businessId)).map((m) => [m.name, m.role]);

describe('inviting a member', () => {
  it('lands the invitee, who signs in from the SMS link, in the business with the role invited', async () => {
    const owner = await signedUpOwner();
    const viewer = await invitedMember(owner.browser, 'viewer');
    const home = await viewer.browser.get('/dashboard');
    expect(home.status).toBe(200);
    expect(home.text).toContain(`data-business-id="${owner.businessId}"`);
    expect(home.text).toContain('<dd data-testid="role">Lecture seule</dd>');
    // Names are text wherever they are shown: the business, the members, the invitation.
    expect(home.text).toContain('Maquis &lt;img src=x onerror=alert(1)&gt;');
    const team = await owner.browser.get('/dashboard/team');
    expect(team.text).toContain('Kofi Mensah &lt;img src=x onerror=alert(1)&gt;');
    expect(team.text).toContain('Traoré &lt;img');
    expect(team.text).not.toContain('<img');
    expect(await teamOf(owner.businessId)).toEqual([
      [`Aïcha Traoré ${hostile}`, 'owner'],
      [`Kofi Mensah ${hostile}`, 'viewer'],
    ]);
    // The invitation is spent: it is no longer pending.
    expect(await data.invitations.invitationsOfBusiness(owner.businessId)).toEqual([]);
  });

  it('tells a phone already in the team apart, and names the fields to fix', async () => {
    const owner = await signedUpOwner();
    const again = await invite(owner.browser, owner.phone, 'viewer');
    expect(again.status).toBe(409);
    expect(again.text).toContain('déjà membre');
    const wrong = await invite(owner.browser, 'not a phone', 'emperor', ['', hostile]);
    expectErrorSummary(wrong, 400, 'firstName', 'phone', 'invite-role');
    expect(wrong.text).toContain('value="&lt;img src=x onerror=alert(1)&gt;"');
    expect(await data.invitations.invitationsOfBusiness(owner.businessId)).toEqual([]);
  });
});

describe('roles, enforced on the server', () => {
  it('refuses a viewer’s hand-made posts with 403, and nothing changes', async () => {
    const owner = await signedUpOwner();
    const viewer = await invitedMember(owner.browser, 'viewer');
    const ownerMemberId = memberIdsOf((await owner.browser.get('/dashboard/team')).text)[0] as string;
    const csrf = await viewer.browser.csrfOf('/dashboard');
    const before = await teamOf(owner.businessId);
    const posts: [string, Record<string, string>][] = [
      [
        '/dashboard/team/invitations',
        { firstName: 'X', lastName: 'Y', phone: newDashboardPhone(), role: 'owner' },
      ],
      [`/dashboard/team/members/${ownerMemberId}/role`, { role: 'viewer' }],
      [`/dashboard/team/members/${ownerMemberId}/remove`, {}],
      ['/dashboard/verification', {}],
    ];
    for (const [path, form] of posts) {
      const answer = await viewer.browser.post(path, { csrf, ...form });
      expect(answer.status, path).toBe(403);
    }
    expect(await teamOf(owner.businessId)).toEqual(before);
    expect(await data.invitations.invitationsOfBusiness(owner.businessId)).toEqual([]);
    // The team page shows a viewer no form to change it.
    const team = await viewer.browser.get('/dashboard/team');
    expect(team.status).toBe(200);
    expect(team.text).not.toContain('/team/invitations');
  });

  it('lets only owners make or unmake owners: an admin may not, nor remove one', async () => {
    const owner = await signedUpOwner();
    const adminMember = await invitedMember(owner.browser, 'admin');
    const [ownerId, adminId] = memberIdsOf((await owner.browser.get('/dashboard/team')).text) as [
      string,
      string,
    ];
    const csrf = await adminMember.browser.csrfOf('/dashboard');
    const asAdmin = (path: string, form: Record<string, string> = {}) =>
      adminMember.browser.post(path, { csrf, ...form });
    expect((await asAdmin(`/dashboard/team/members/${adminId}/role`, { role: 'owner' })).status).toBe(403);
    expect((await asAdmin(`/dashboard/team/members/${ownerId}/role`, { role: 'viewer' })).status).toBe(403);
    expect((await asAdmin(`/dashboard/team/members/${ownerId}/remove`)).status).toBe(403);
    expect((await invite(adminMember.browser, newDashboardPhone(), 'owner')).status).toBe(403);
    expect(await teamOf(owner.businessId)).toEqual([
      [expect.any(String), 'owner'],
      [expect.any(String), 'admin'],
    ]);
    // An admin manages the rest of the team.
    expect((await asAdmin(`/dashboard/team/members/${adminId}/role`, { role: 'developer' })).status).toBe(
      303,
    );
    expect((await teamOf(owner.businessId))[1]?.[1]).toBe('developer');
  });

  it('keeps the last owner: not removed, not demoted; with a second owner, one may step down', async () => {
    const owner = await signedUpOwner();
    const [ownerId] = memberIdsOf((await owner.browser.get('/dashboard/team')).text) as [string];
    const csrf = await owner.browser.csrfOf('/dashboard');
    const demoted = await owner.browser.post(`/dashboard/team/members/${ownerId}/role`, {
      csrf,
      role: 'admin',
    });
    expect(demoted.status).toBe(409);
    expect(demoted.text).toContain('dernier propriétaire');
    const removed = await owner.browser.post(`/dashboard/team/members/${ownerId}/remove`, { csrf });
    expect(removed.status).toBe(409);
    expect(await teamOf(owner.businessId)).toEqual([[expect.any(String), 'owner']]);

    const second = await invitedMember(owner.browser, 'owner');
    const [, secondId] = memberIdsOf((await owner.browser.get('/dashboard/team')).text) as [string, string];
    expect(
      (await owner.browser.post(`/dashboard/team/members/${ownerId}/role`, { csrf, role: 'admin' })).status,
    ).toBe(303);
    // Now the second owner is the last one.
    const secondCsrf = await second.browser.csrfOf('/dashboard');
    expect(
      (await second.browser.post(`/dashboard/team/members/${secondId}/remove`, { csrf: secondCsrf })).status,
    ).toBe(409);
    expect((await teamOf(owner.businessId)).map(([, role]) => role)).toEqual(['admin', 'owner']);
  });

  it('removing a member ends their access at once: their next page sends them to choose a business', async () => {
    const owner = await signedUpOwner();
    const viewer = await invitedMember(owner.browser, 'viewer');
    const [, viewerId] = memberIdsOf((await owner.browser.get('/dashboard/team')).text) as [string, string];
    const csrf = await owner.browser.csrfOf('/dashboard');
    expect((await owner.browser.post(`/dashboard/team/members/${viewerId}/remove`, { csrf })).status).toBe(
      303,
    );
    const home = await viewer.browser.get('/dashboard');
    expect(home.status).toBe(303);
    expect(home.location).toBe(`${baseUrl}/dashboard/businesses`);
    expect((await viewer.browser.get('/dashboard/businesses')).text).not.toContain(owner.businessId);
  });
});

describe('one business’s session and another business’s objects', () => {
  it('answers 404 for a member, an invitation, a verification or a business of another business, and changes nothing', async () => {
    const a = await signedUpOwner('Boutique A');
    const b = await signedUpOwner('Boutique B');
    const [bOwnerId] = memberIdsOf((await b.browser.get('/dashboard/team')).text) as [string];
    const bCsrf = await b.browser.csrfOf('/dashboard');
    const bVerification = (await b.browser.post('/dashboard/verification', { csrf: bCsrf })).location ?? '';
    expect(bVerification).toMatch(/\/dashboard\/verification\/[0-9a-f-]{36}$/);
    // B's pending invitation, named by its id in A's session.
    expect((await invite(b.browser, newDashboardPhone(), 'viewer')).status).toBe(303);
    const [bInvitation] = await data.invitations.invitationsOfBusiness(b.businessId);
    const bInvitationId = data.invitations.invitationIdOf(bInvitation as Invitation);
    const csrf = await a.browser.csrfOf('/dashboard');
    const probes: [string, 'GET' | 'POST', Record<string, string>][] = [
      [`/dashboard/team/members/${bOwnerId}/role`, 'POST', { csrf, role: 'viewer' }],
      [`/dashboard/team/members/${bOwnerId}/remove`, 'GET', {}],
      [`/dashboard/team/members/${bOwnerId}/remove`, 'POST', { csrf }],
      [`/dashboard/team/invitations/${bInvitationId}/cancel`, 'GET', {}],
      [`/dashboard/team/invitations/${bInvitationId}/cancel`, 'POST', { csrf }],
      [new URL(bVerification).pathname, 'GET', {}],
      [
        new URL(bVerification).pathname,
        'POST',
        {
          csrf,
          firstName: 'A',
          lastName: 'B',
          idNumber: 'CI1',
          'dateOfBirth-day': '1',
          'dateOfBirth-month': '1',
          'dateOfBirth-year': '1990',
        },
      ],
      ['/dashboard/businesses', 'POST', { csrf, businessId: b.businessId }],
      [`/dashboard/team/members/${randomUUID()}/remove`, 'POST', { csrf }],
    ];
    for (const [path, method, form] of probes) {
      const answer = method === 'GET' ? await a.browser.get(path) : await a.browser.post(path, form);
      expect(answer.status, `${method} ${path}`).toBe(404);
      expect(answer.text).not.toContain('Boutique B');
    }
    expect(await teamOf(b.businessId)).toEqual([[expect.any(String), 'owner']]);
    expect(await data.invitations.invitationsOfBusiness(b.businessId)).toEqual([bInvitation]);
    expect((await data.business.getBusiness(b.businessId))?.verificationLevel).toBe(0);
    // A's session still acts for A.
    expect((await a.browser.get('/dashboard')).text).toContain(`data-business-id="${a.businessId}"`);
  });
});

describe('posts that are not the person’s own doing', () => {
  it('refuses an invitation, a role change, a switch and sign-out everywhere without the token or from another site', async () => {
    const owner = await signedUpOwner();
    const viewer = await invitedMember(owner.browser, 'viewer');
    const [, viewerId] = memberIdsOf((await owner.browser.get('/dashboard/team')).text) as [string, string];
    const csrf = await owner.browser.csrfOf('/dashboard');
    const verification = new URL(
      (await owner.browser.post('/dashboard/verification', { csrf })).location ?? '',
    ).pathname;
    const identity = {
      firstName: 'A',
      lastName: 'B',
      idNumber: 'CI004512387',
      'dateOfBirth-day': '1',
      'dateOfBirth-month': '1',
      'dateOfBirth-year': '1990',
    };
    const invitee = newDashboardPhone();
    const forms: [string, Record<string, string>][] = [
      [verification, identity],
      ['/dashboard/team/invitations', { firstName: 'X', lastName: 'Y', phone: invitee, role: 'admin' }],
      [`/dashboard/team/members/${viewerId}/role`, { role: 'admin' }],
      [`/dashboard/team/members/${viewerId}/remove`, {}],
      ['/dashboard/businesses', { businessId: owner.businessId }],
      ['/dashboard/sign-out-everywhere', {}],
      ['/dashboard/verification', {}],
    ];
    for (const [path, form] of forms) {
      expect((await owner.browser.post(path, form)).status, `${path} without token`).toBe(403);
      expect((await owner.browser.post(path, { ...form, csrf: 'forged' })).status, `${path} forged`).toBe(
        403,
      );
      const foreign = await owner.browser.post(path, { ...form, csrf }, { origin: 'https://evil.example' });
      expect(foreign.status, `${path} foreign`).toBe(403);
    }
    expect((await teamOf(owner.businessId)).map(([, role]) => role)).toEqual(['owner', 'viewer']);
    expect(await data.invitations.invitationsOfBusiness(owner.businessId)).toEqual([]);
    expect(await signInCodesOf(baseUrl, invitee)).toEqual([]);
    expect(await invitationLinksOf(baseUrl, invitee, 0)).toEqual([]);
    expect((await data.business.getBusiness(owner.businessId))?.verificationLevel).toBe(0);
    // Both sessions live on.
    expect((await owner.browser.get('/dashboard')).status).toBe(200);
    expect((await viewer.browser.get('/dashboard')).status).toBe(200);
  });
});

describe('several businesses', () => {
  it('a person in two businesses picks one; every page then acts for that one only', async () => {
    const own = await signedUpOwner(`Maison Aïcha ${hostile}`);
    const other = await signedUpOwner('Maison Kofi');
    // The owner of one is invited into the other as a developer.
    expect((await invite(other.browser, own.phone, 'developer')).status).toBe(303);
    const browser = new DashboardBrowser(baseUrl);
    expect((await browser.signInWith(own.phone)).location).toBe(`${baseUrl}/dashboard`);
    // Signed in from the invitation: acting for the business just joined.
    let home = await browser.get('/dashboard');
    expect(home.text).toContain(`data-business-id="${other.businessId}"`);
    expect(home.text).toContain('Développeur');
    const list = await browser.get('/dashboard/businesses');
    expect(list.text).toContain('Maison Aïcha &lt;img src=x onerror=alert(1)&gt;');
    expect(list.text).not.toContain('<img');
    expect(list.text).toContain('Maison Kofi');
    const chosen = await browser.post('/dashboard/businesses', {
      csrf: await browser.csrfOf('/dashboard/businesses'),
      businessId: own.businessId,
    });
    expect(chosen.status).toBe(303);
    expect(chosen.location).toBe(`${baseUrl}/dashboard`);
    home = await browser.get('/dashboard');
    expect(home.text).toContain(`data-business-id="${own.businessId}"`);
    expect(home.text).toContain('Propriétaire');
    const team = await browser.get('/dashboard/team');
    expect(team.text).toContain('Maison Aïcha');
    expect(team.text).not.toContain('Maison Kofi');
    // A new sign-in of a person with two businesses asks which one.
    const later = new DashboardBrowser(baseUrl);
    await later.signInWith(own.phone);
    const asked = await later.get('/dashboard');
    expect(asked.status).toBe(303);
    expect(asked.location).toBe(`${baseUrl}/dashboard/businesses`);
  });
});

describe('signing out everywhere', () => {
  it('ends every session of the person, on every device, and no other person’s', async () => {
    const owner = await signedUpOwner();
    const phone2 = new DashboardBrowser(baseUrl);
    expect((await phone2.signInWith(owner.phone)).location).toBe(`${baseUrl}/dashboard`);
    const viewer = await invitedMember(owner.browser, 'viewer');
    expect((await phone2.get('/dashboard')).status).toBe(200);
    const out = await owner.browser.post('/dashboard/sign-out-everywhere', {
      csrf: await owner.browser.csrfOf('/dashboard'),
    });
    expect(out.status).toBe(303);
    expect(out.location).toBe(`${baseUrl}/dashboard/sign-in`);
    expect(out.setCookie).toMatch(/^session=; Path=\/; Max-Age=0/);
    const stale = await phone2.get('/dashboard');
    expect(stale.status).toBe(303);
    expect(stale.location).toBe(`${baseUrl}/dashboard/sign-in`);
    expect((await viewer.browser.get('/dashboard')).status).toBe(200);
  });
});

describe('verification and API access', () => {
  it('the owner verifies on the dashboard: level 1, API access on, the ceiling raised, and a key then works', async () => {
    const owner = await signedUpOwner();
    const before = (await owner.browser.get('/dashboard')).text;
    expect(before).toContain('<dd data-testid="verification-level">0</dd>');
    expect(before).toContain('Pas encore activé');
    expect(before).toMatch(/data-testid="ceiling">0\s?F\s?CFA</);
    // The way to a first payment leads the page, each step a link until done.
    expect(before).toContain('<li data-step="verify" data-done="false">');
    expect(before).toContain(`href="${baseUrl}/dashboard/payment-links/new"`);
    expect(before).toContain(`href="${baseUrl}/dashboard/withdrawals"`);
    const headers = await apiKeyOf(dataDir, owner.businessId);
    expect((await fetch(`${baseUrl}/partner_api/stores`, { headers })).status).toBe(403);

    const csrf = await owner.browser.csrfOf('/dashboard');
    const started = await owner.browser.post('/dashboard/verification', { csrf });
    expect(started.status).toBe(303);
    const path = new URL(started.location ?? '').pathname;
    // Started twice, the same one.
    expect((await owner.browser.post('/dashboard/verification', { csrf })).location).toBe(started.location);
    const form = await owner.browser.get(path);
    expect(form.status).toBe(200);
    expect(form.text).toContain('Vérification d’identité');
    const missing = await owner.browser.post(path, {
      csrf,
      firstName: 'Aïcha',
      lastName: '',
      idNumber: '',
      'dateOfBirth-day': '',
      'dateOfBirth-month': '',
      'dateOfBirth-year': '',
    });
    expect(missing.status).toBe(400);
    const done = await owner.browser.post(path, {
      csrf,
      firstName: 'Aïcha',
      lastName: 'Traoré',
      idNumber: 'CI004512387',
      'dateOfBirth-day': '12',
      'dateOfBirth-month': '4',
      'dateOfBirth-year': '1990',
    });
    expect(done.status).toBe(200);
    expect(done.text).toContain('data-status="approved"');
    const home = await owner.browser.get('/dashboard');
    expect(home.text).toContain('<dd data-testid="verification-level">1</dd>');
    expect(home.text).toContain('<dd data-testid="api-access">Activé</dd>');
    expect(home.text).toMatch(/data-testid="ceiling">2\s?000\s?000\s?F\s?CFA</);
    expect(home.text).not.toContain('/dashboard/verification"');
    expect(home.text).toContain('<li data-step="verify" data-done="true">');
    expect(home.text).toContain('<li data-step="collect" data-done="false">');
    expect(await data.business.getBusiness(owner.businessId)).toMatchObject({
      verificationLevel: 1,
      apiAccessEnabled: true,
    });
    // The 403 above left the level-0 business in the host's key cache, which keeps it
    // AUTH_CACHE_TTL_SECONDS: that expiry is what lets the key in, so wait for the key to work.
    await untilTheApiLetsIn(baseUrl, headers);
  });
});
