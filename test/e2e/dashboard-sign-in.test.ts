import { beforeAll, describe, expect, it } from 'vitest';
import { DashboardBrowser, newDashboardPhone, nextCodeOf, signInCodesOf } from '#test/support/dashboard.ts';
import { expectErrorSummary, platformTextsRecordedFor, theLocalHost } from '#test/support/dashboard-setup.ts';
import { admin } from '#test/support/local-host.ts';

/**
 * The dashboard's way in, on the local host over real HTTP, as a browser without JavaScript uses
 * it: the codes come from the local SMS inbox, what the phone got. The attacks are tested along
 * with the happy path: forged and foreign posts change nothing, codes cannot be guessed past five
 * tries nor used twice, a fourth code in 15 minutes is not sent, stale and forged sessions open
 * nothing, and names are shown as text.
 */
const { config, dataDir, baseUrl } = theLocalHost();

const business = {
  firstName: 'Aïcha',
  lastName: 'Traoré',
  businessName: 'Maquis <img src=x onerror=alert(1)>',
  activityId: 'commerce.boutique',
  storeName: 'Yopougon "Sideci"',
};

/** A new owner through the whole sign-up, signed in: their browser and their business's id. */
async function signedUpOwner(form = business) {
  const browser = new DashboardBrowser(baseUrl);
  const phone = newDashboardPhone();
  const code = await browser.signInWith(phone);
  expect(code.status).toBe(303);
  expect(code.location).toBe(`${baseUrl}/dashboard/sign-up`);
  const created = await browser.post('/dashboard/sign-up', form);
  expect(created.status, created.text.slice(0, 500)).toBe(303);
  expect(created.location).toBe(`${baseUrl}/dashboard`);
  const home = await browser.get('/dashboard');
  const businessId = /data-business-id="([^"]+)"/.exec(home.text)?.[1] ?? '';
  return { browser, phone, businessId, home, created };
}

let documents: typeof import('#shared/data/user.ts');
beforeAll(async () => {
  documents = await import('#shared/data/user.ts');
});

describe('signing up with a phone', () => {
  it('makes the business, signs the owner in, and shows the business on the home page, names as text', async () => {
    const { home, businessId } = await signedUpOwner();
    expect(home.status).toBe(200);
    expect(home.text).toContain('Maquis &lt;img src=x onerror=alert(1)&gt;');
    expect(home.text).not.toContain('<img');
    expect(businessId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('gives the new business no API access: a key made for it is refused with 403', async () => {
    const { businessId } = await signedUpOwner();
    const { keyId, key } = await admin(dataDir, 'create-key', '--business', businessId);
    const answer = await fetch(`${baseUrl}/partner_api/stores`, {
      headers: { 'X-API-KEY-ID': keyId as string, 'X-API-KEY': key as string },
    });
    expect(answer.status).toBe(403);
    expect(((await answer.json()) as { id: string }).id).toBe('business_not_enabled_for_api_access');
  });

  it('shows the form again, escaped and with its errors, when a field is missing', async () => {
    const browser = new DashboardBrowser(baseUrl);
    expect((await browser.signInWith(newDashboardPhone())).location).toBe(`${baseUrl}/dashboard/sign-up`);
    const answer = await browser.post('/dashboard/sign-up', {
      ...business,
      lastName: '',
      activityId: 'casino',
    });
    expectErrorSummary(answer, 400, 'lastName', 'activityId');
    expect(answer.text).toContain('value="Maquis &lt;img src=x onerror=alert(1)&gt;"');
    expect(answer.text).toContain('value="Yopougon &quot;Sideci&quot;"');
  });

  it('says the same words to a known phone and a new one until the code is right', async () => {
    const known = new DashboardBrowser(baseUrl);
    const unknown = new DashboardBrowser(baseUrl);
    const demoPhone = config.demo.ownerPhone ?? '';
    const had = (await signInCodesOf(baseUrl, demoPhone)).length;
    const toKnown = await known.post('/dashboard/sign-in', { phone: demoPhone });
    const toUnknown = await unknown.post('/dashboard/sign-in', { phone: newDashboardPhone() });
    expect([toKnown.status, toKnown.location]).toEqual([toUnknown.status, toUnknown.location]);
    const [knownPage, unknownPage] = await Promise.all([
      known.get('/dashboard/sign-in/code'),
      unknown.get('/dashboard/sign-in/code'),
    ]);
    expect(knownPage.text).toBe(unknownPage.text);
    // Its code reaches the phone: a later sign-in of the demo owner waits for a code after it.
    await nextCodeOf(baseUrl, demoPhone, had);
  });
});

describe('signing in', () => {
  it('signs the demo owner in with the code the phone got, and shows the demo business', async () => {
    const phone = config.demo.ownerPhone as string;
    expect(phone).toMatch(/^\+225/);
    const browser = new DashboardBrowser(baseUrl);
    const answer = await browser.signInWith(phone);
    expect(answer.status).toBe(303);
    expect(answer.location).toBe(`${baseUrl}/dashboard`);
    const home = await browser.get('/dashboard');
    expect(home.status).toBe(200);
    expect(home.text).toContain('Demo Boutique');
  });

  it('sets the session cookie HttpOnly, SameSite=Lax, for the whole site; plain-HTTP localhost drops Secure and the prefix', async () => {
    const browser = new DashboardBrowser(baseUrl);
    const sent = await browser.post('/dashboard/sign-in', { phone: newDashboardPhone() });
    expect(sent.setCookie).toMatch(/^sign-in=[0-9a-f-]{36}; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Lax$/);
    expect(sent.setCookie).not.toContain('+225');
    const { browser: owner, phone } = await signedUpOwner();
    const again = new DashboardBrowser(baseUrl);
    const signedIn = await again.signInWith(phone);
    expect(signedIn.setCookie).toMatch(
      /^session=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=43200; HttpOnly; SameSite=Lax$/,
    );
    // A new id at every sign-in: the earlier browser's session is another one.
    expect(again.cookies.get('session')).not.toBe(owner.cookies.get('session'));
    expect(signedIn.headers.get('referrer-policy')).toBe('same-origin');
    expect(signedIn.headers.get('content-security-policy')).toContain("default-src 'none'");
  });

  it('refuses a sixth try even with the right code, after five wrong ones', async () => {
    const browser = new DashboardBrowser(baseUrl);
    const phone = newDashboardPhone();
    await browser.post('/dashboard/sign-in', { phone });
    const code = await nextCodeOf(baseUrl, phone, 0);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    for (let left = 4; left >= 1; left--) {
      const answer = await browser.post('/dashboard/sign-in/code', { code: wrong });
      expect(answer.status).toBe(400);
      expect(answer.text).toContain(`Il vous reste ${left > 1 ? `${left} essais` : '1 essai'}`);
    }
    expect((await browser.post('/dashboard/sign-in/code', { code: wrong })).status).toBe(400);
    const sixth = await browser.post('/dashboard/sign-in/code', { code });
    expect(sixth.status).toBe(400);
    expect(sixth.setCookie).toBeNull();
    expect(sixth.text).toContain('n’est plus valable');
  });

  it('refuses a code used once already', async () => {
    const { phone } = await signedUpOwner();
    const browser = new DashboardBrowser(baseUrl);
    const had = (await signInCodesOf(baseUrl, phone)).length;
    await browser.post('/dashboard/sign-in', { phone });
    const code = await nextCodeOf(baseUrl, phone, had);
    expect((await browser.post('/dashboard/sign-in/code', { code })).status).toBe(303);
    const replay = new DashboardBrowser(baseUrl);
    replay.cookies.set('sign-in', browser.cookies.get('sign-in') as string);
    const again = await replay.post('/dashboard/sign-in/code', { code });
    expect(again.status).toBe(400);
    expect(again.setCookie).toBeNull();
  });

  it('sends no fourth code to a phone within 15 minutes', async () => {
    const phone = newDashboardPhone();
    for (let i = 0; i < 3; i++) {
      expect((await new DashboardBrowser(baseUrl).post('/dashboard/sign-in', { phone })).status).toBe(303);
    }
    await nextCodeOf(baseUrl, phone, 2);
    const fourth = await new DashboardBrowser(baseUrl).post('/dashboard/sign-in', { phone });
    expect(fourth.status).toBe(429);
    expect(fourth.setCookie).toBeNull();
    // The refusal recorded no text: nothing more can reach the phone than the three it got.
    expect(await platformTextsRecordedFor(phone)).toHaveLength(3);
    expect(await signInCodesOf(baseUrl, phone)).toHaveLength(3);
  });
});

describe('sessions', () => {
  it('sends a forged or unknown session cookie to the sign-in page, and clears it', async () => {
    for (const forged of ['A'.repeat(43), 'not-a-session', '']) {
      const answer = await fetch(`${baseUrl}/dashboard`, {
        headers: { cookie: `session=${forged}` },
        redirect: 'manual',
      });
      expect(answer.status).toBe(303);
      expect(answer.headers.get('location')).toBe(`${baseUrl}/dashboard/sign-in`);
      expect(answer.headers.get('set-cookie')).toMatch(/^session=; Path=\/; Max-Age=0/);
    }
  });

  it('ends a session idle for 30 minutes', async () => {
    const { browser } = await signedUpOwner();
    const { UpdateCommand } = await import('@aws-sdk/lib-dynamodb');
    const { documentClient } = await import('#shared/aws/dynamodb.ts');
    const { sessionIdHash } = await import('#shared/operations/dashboard-sessions.ts');
    const idHash = sessionIdHash(browser.cookies.get('session') as string);
    await documentClient.send(
      new UpdateCommand({
        TableName: config.tableName,
        Key: { pk: `SESSION#${idHash}`, sk: 'SESSION' },
        UpdateExpression: 'SET lastSeenAt = :then',
        ExpressionAttributeValues: { ':then': new Date(Date.now() - 31 * 60_000).toISOString() },
      }),
    );
    const answer = await browser.get('/dashboard');
    expect(answer.status).toBe(303);
    expect(answer.location).toBe(`${baseUrl}/dashboard/sign-in`);
  });

  it('ends the session on sign-out: the same cookie opens nothing afterwards', async () => {
    const { browser } = await signedUpOwner();
    const id = browser.cookies.get('session') as string;
    const out = await browser.post('/dashboard/sign-out', { csrf: await browser.csrfOf() });
    expect(out.status).toBe(303);
    expect(out.setCookie).toMatch(/^session=; Path=\/; Max-Age=0/);
    const replay = new DashboardBrowser(baseUrl);
    replay.cookies.set('session', id);
    expect((await replay.get('/dashboard')).status).toBe(303);
  });
});

describe('posts that are not the person’s own doing', () => {
  it('refuses a sign-out without the CSRF token, or with a foreign Origin: 403, and the session lives on', async () => {
    const { browser } = await signedUpOwner();
    const token = await browser.csrfOf();
    expect((await browser.post('/dashboard/sign-out', {})).status).toBe(403);
    expect((await browser.post('/dashboard/sign-out', { csrf: 'A'.repeat(43) })).status).toBe(403);
    const foreign = await browser.post(
      '/dashboard/sign-out',
      { csrf: token },
      { origin: 'https://evil.example' },
    );
    expect(foreign.status).toBe(403);
    const noOrigin = await fetch(`${baseUrl}/dashboard/sign-out`, {
      method: 'POST',
      headers: { cookie: browser.cookieHeader, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrf: token }).toString(),
      redirect: 'manual',
    });
    expect(noOrigin.status).toBe(403);
    expect((await browser.get('/dashboard')).status).toBe(200);
  });

  it('sends no code for a post from another site', async () => {
    const phone = newDashboardPhone();
    const answer = await new DashboardBrowser(baseUrl).post(
      '/dashboard/sign-in',
      { phone },
      { origin: 'https://evil.example' },
    );
    expect(answer.status).toBe(403);
    expect(answer.setCookie).toBeNull();
    // No text recorded for the phone: none will ever reach it.
    expect(await platformTextsRecordedFor(phone)).toEqual([]);
    expect(await signInCodesOf(baseUrl, phone)).toHaveLength(0);
  });

  it('makes no business from a sign-up posted from another site, even with a verified phone', async () => {
    const browser = new DashboardBrowser(baseUrl);
    const phone = newDashboardPhone();
    expect((await browser.signInWith(phone)).location).toBe(`${baseUrl}/dashboard/sign-up`);
    const foreign = await browser.post('/dashboard/sign-up', business, { origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect(await documents.findUserByPhone(phone)).toBeUndefined();
    // The person's own post still works afterwards: nothing was spent.
    expect((await browser.post('/dashboard/sign-up', business)).status).toBe(303);
    expect(await documents.findUserByPhone(phone)).toBeDefined();
  });
});
