import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import type { LocalConfig } from '#infra/local/local-config.ts';
import { apiClient, type Body, demoApi } from '#test/support/api-client.ts';
import { backgroundWorkMs, DashboardBrowser } from '#test/support/dashboard.ts';
import { newOwner, newPhone, smsCodeFor } from '#test/support/link-requests.ts';
import { admin } from '#test/support/local-host.ts';

/**
 * Every hosted page in every state a payer or a shop owner can meet, made on a running local host
 * through its API and its forms, each with the way to bring a browser's page into it. The
 * accessibility test and the screenshots command go over the same list, so a page or a state added
 * here is both measured and shown. A state's `visit` may be run several times (two sizes, two
 * languages): it never uses up what it shows.
 */
export interface PageState {
  name: string;
  visit(page: Page): Promise<void>;
}

/** The sandbox's test numbers (shared/providers/sandbox.ts). */
const numbers = {
  success: '+2250700000001',
  declined: '+2250700000002',
  noCallback: '+2250700000004',
  refused: '+2250700000005',
};

/** Posts a page's form as a browser does, without following the redirect it answers with. */
async function postForm(url: string, fields: Record<string, string>, cookie?: string) {
  const response = await fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(cookie ? { cookie } : {}),
    },
    body: new URLSearchParams(fields),
  });
  await response.arrayBuffer();
  return { status: response.status, location: response.headers.get('location') ?? '' };
}

/** Submits the payer's form on a hosted page, then answers on the sandbox provider's page. */
async function payThrough(pageUrl: string, phone: string, answer?: 'approve' | 'decline') {
  const started = await postForm(pageUrl, { paymentMethod: 'orange', payerPhone: phone });
  if (started.status !== 302 && started.status !== 303)
    throw new Error(`${pageUrl} answered ${started.status} to a payment`);
  if (!answer) return { checkoutUrl: started.location, returnUrl: '' };
  const answered = await postForm(started.location, { action: answer, payerPhone: phone });
  return { checkoutUrl: started.location, returnUrl: answered.location };
}

/** Clicks the form's submit button after filling the phone, and waits for the page it answers with. */
async function submitPhone(page: Page, phone: string) {
  await page.locator('#payerPhone').fill(phone);
  await Promise.all([
    page.waitForLoadState(),
    page.locator('form.content button[type=submit]').first().click(),
  ]);
  await page.waitForLoadState();
}

/** Waits until `check` holds, for the states that settle through a callback or a timer. */
async function until(check: () => Promise<boolean>, what: string, timeoutMs = backgroundWorkMs) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export async function preparePageStates(config: LocalConfig, dataDir: string): Promise<PageState[]> {
  const { baseUrl, demo } = config;
  const api = demoApi(config);
  const call = apiClient(baseUrl);

  const paymentRequest = async (options: { expiresAt?: string; type?: 'redirect' } = {}) => {
    const reference = `CMD-${randomUUID().slice(0, 8).toUpperCase()}`;
    const { status, body } = await api('POST', '/partner_api/payment_requests', {
      storeId: demo.storeId,
      amountCents: 150_000,
      currency: 'XOF',
      reference,
      description: '2 pagnes wax, livraison Cocody',
      expiresAt: options.expiresAt,
      paymentDetails: {
        type: 'redirect',
        data: { paymentMethod: 'wave', successUrl: `${baseUrl}/__test/ok`, errorUrl: `${baseUrl}/__test/ko` },
      },
    });
    if (status !== 200) throw new Error(`payment request: ${status} ${JSON.stringify(body)}`);
    return body as { id: string; redirectUrl: string };
  };
  const requestStatus = async (id: string) =>
    ((await api('GET', `/partner_api/payment_requests/${id}`)).body as Body).status as string;

  const form = await paymentRequest();

  const refused = await paymentRequest();
  const declined = await paymentRequest();
  await payThrough(declined.redirectUrl, numbers.declined, 'decline');

  const underWay = await paymentRequest();
  const { returnUrl: waitingUrl } = await payThrough(underWay.redirectUrl, numbers.noCallback, 'approve');

  const paid = await paymentRequest();
  await payThrough(paid.redirectUrl, numbers.success, 'approve');
  await until(async () => (await requestStatus(paid.id)) === 'success', 'the paid payment');

  // The shortest lifetime the test host allows (2 s), with room for a request slowed by a busy
  // machine to arrive in time; the states below take longer than that to make anyway.
  const expired = await paymentRequest({ expiresAt: new Date(Date.now() + 5_000).toISOString() });
  const cancelled = await paymentRequest();
  await api('POST', `/partner_api/payment_requests/${cancelled.id}/cancel`, {});
  const abandoned = await paymentRequest();
  await postForm(`${abandoned.redirectUrl}/abandon`, {});

  const unanswered = await paymentRequest();
  const { checkoutUrl } = await payThrough(unanswered.redirectUrl, numbers.success);

  const paymentLink = async (allowMultiplePayments: boolean) => {
    const { status, body } = await api('POST', '/partner_api/payment_links', {
      storeId: demo.storeId,
      title: 'Deux pagnes wax, livraison à Cocody',
      amountCents: 1_500_000,
      currency: 'XOF',
      allowMultiplePayments,
    });
    if (status !== 200) throw new Error(`payment link: ${status} ${JSON.stringify(body)}`);
    return body as { id: string; link: string };
  };
  const openLink = await paymentLink(true);
  const { returnUrl: linkWaitingUrl } = await payThrough(openLink.link, numbers.noCallback, 'approve');
  const paidLink = await paymentLink(false);
  const { returnUrl: linkPaidUrl } = await payThrough(paidLink.link, numbers.success, 'approve');
  await until(
    async () => !(await api('GET', `/partner_api/payment_links/${paidLink.id}`)).body.canReceivePayments,
    'the single-use link to be paid',
  );
  // A single-use link another customer's attempt holds: the next one is asked to come back (409).
  const heldLink = await paymentLink(false);
  await payThrough(heldLink.link, numbers.noCallback);
  const inactiveLink = await paymentLink(true);
  await api('POST', `/partner_api/payment_links/${inactiveLink.id}/deactivate`, {});

  // A service provider asking a shop owner for access, and checking the owner's identity.
  const { businessId: providerId } = await admin(
    dataDir,
    'create-business',
    '--name',
    `Caisse Pro ${randomUUID().slice(0, 4)}`,
    '--service-provider',
  );
  const { keyId, key } = await admin(dataDir, 'create-key', '--business', providerId as string);
  const providerHeaders = {
    'X-API-KEY-ID': keyId as string,
    'X-API-KEY': key as string,
    'content-type': 'application/json',
  };
  const linkRequest = async () => {
    const owner = await newOwner(dataDir, 'Boutique Awa');
    const created = await call(
      'POST',
      '/partner_api/service_providers/business_link_requests',
      providerHeaders,
      {
        phone: owner.phone,
      },
    );
    if (created.status !== 200)
      throw new Error(`link request: ${created.status} ${JSON.stringify(created.body)}`);
    const id = (created.body as Body)[0].id as string;
    return { id, url: `${baseUrl}/lr/${id}`, code: await smsCodeFor(baseUrl, id) };
  };
  const [consent, wrongCode, approvedConsent, declinedConsent] = await Promise.all([
    linkRequest(),
    linkRequest(),
    linkRequest(),
    linkRequest(),
  ]);
  await postForm(approvedConsent.url, { code: approvedConsent.code, decision: 'approve' });
  await postForm(declinedConsent.url, { code: declinedConsent.code, decision: 'decline' });

  const verification = async (idNumber?: string) => {
    const ownerPhone = newPhone();
    const onboarded = await call(
      'POST',
      '/partner_api/service_providers/business_onboarding',
      providerHeaders,
      {
        owner: { phone: ownerPhone, firstName: 'Fatou', lastName: 'Diallo' },
        business: { name: `Couture Fatou ${randomUUID().slice(0, 6)}`, activityId: 'services.tailor' },
      },
    );
    const started = await call(
      'POST',
      '/partner_api/service_providers/compliance_verifications',
      providerHeaders,
      {
        type: 'kyc',
        merchantBusinessId: (onboarded.body as Body).business.id,
      },
    );
    if (started.status !== 200)
      throw new Error(`verification: ${started.status} ${JSON.stringify(started.body)}`);
    const url = (started.body as Body).url as string;
    // The identity check is on the dashboard: the owner signs in, and the page's browser borrows
    // that session (the cookie), as the owner's own phone would hold it.
    const owner = new DashboardBrowser(baseUrl);
    await owner.signInWith(ownerPhone);
    const path = new URL(url).pathname;
    if (idNumber) {
      const completed = await owner.post(path, {
        csrf: await owner.csrfOf(path),
        firstName: 'Fatou',
        lastName: 'Diallo',
        idNumber,
        'dateOfBirth-day': '12',
        'dateOfBirth-month': '4',
        'dateOfBirth-year': '1990',
      });
      if (completed.status !== 200) throw new Error(`identity check: ${completed.status}`);
    }
    return { url, session: owner.cookies.get('session') ?? '' };
  };
  const [kycForm, kycApproved, kycRejected] = await Promise.all([
    verification(),
    verification('CI-1234567'),
    verification('CI-1230000'),
  ]);

  // A soundbox of its own, so another test's simulator holding the demo device is left alone.
  const deviceId = `gallery-${randomUUID().slice(0, 8)}`;
  const device = await admin<{ mqtt: { password: string } }>(
    dataDir,
    'create-device',
    '--device-id',
    deviceId,
    '--store',
    demo.storeId,
  );
  const soundboxUrl = `${baseUrl}/__local/soundbox/${deviceId}#password=${encodeURIComponent(device.mqtt.password)}`;
  const showSoundboxQr = async (page: Page) => {
    await page.goto(soundboxUrl);
    await page.locator('#status[data-state=online]').waitFor({ timeout: backgroundWorkMs });
    const created = await api('POST', '/partner_api/payment_requests', {
      storeId: demo.storeId,
      amountCents: 150_000,
      currency: 'XOF',
      reference: `CAISSE-${randomUUID().slice(0, 6)}`,
      paymentDetails: {
        type: 'soundbox',
        data: {
          paymentMethod: 'orange',
          deviceId,
          successUrl: 'https://a.example/ok',
          errorUrl: 'https://a.example/ko',
        },
      },
    });
    if (created.status !== 200) throw new Error(`soundbox request: ${created.status}`);
    await page.locator(`#display[data-payment-request-id="${(created.body as Body).id}"]`).waitFor();
    return (created.body as Body).id as string;
  };

  // Past its time the request is shown expired, whatever the background job has done: its
  // lifetime is the state itself, so this waits for the API to read it ended.
  await until(
    async () =>
      ((await api('GET', `/partner_api/payment_requests/${expired.id}`)).body as Body).errorReason ===
      'expired',
    'the short-lived request to expire',
  );

  const goto = (url: string) => async (page: Page) => {
    await page.goto(url);
  };
  const asOwner = (check: { url: string; session: string }) => async (page: Page) => {
    await page.context().addCookies([{ name: 'session', value: check.session, url: baseUrl }]);
    await page.goto(check.url);
  };
  return [
    { name: 'payment-form', visit: goto(form.redirectUrl) },
    {
      name: 'payment-error-empty-phone',
      visit: async (page) => {
        await page.goto(form.redirectUrl);
        await submitPhone(page, '');
      },
    },
    {
      name: 'payment-error-bad-phone',
      visit: async (page) => {
        await page.goto(form.redirectUrl);
        await submitPhone(page, '12345');
      },
    },
    {
      name: 'payment-refused',
      visit: async (page) => {
        await page.goto(refused.redirectUrl);
        const orange = page.locator('input[name=paymentMethod][value=orange]');
        if (!(await orange.isVisible())) await page.locator('.more-providers > summary').click();
        await orange.check();
        await submitPhone(page, numbers.refused);
      },
    },
    { name: 'payment-declined-retry', visit: goto(declined.redirectUrl) },
    { name: 'payment-under-way', visit: goto(underWay.redirectUrl) },
    { name: 'payment-waiting', visit: goto(waitingUrl) },
    {
      name: 'payment-still-waiting',
      visit: goto(`${underWay.redirectUrl}/return?attempt=90`),
    },
    { name: 'payment-paid-receipt', visit: goto(paid.redirectUrl) },
    { name: 'payment-expired', visit: goto(expired.redirectUrl) },
    { name: 'payment-cancelled', visit: goto(cancelled.redirectUrl) },
    { name: 'payment-abandoned', visit: goto(abandoned.redirectUrl) },
    { name: 'link-form', visit: goto(openLink.link) },
    {
      name: 'link-error-empty-phone',
      visit: async (page) => {
        await page.goto(openLink.link);
        await submitPhone(page, '');
      },
    },
    { name: 'link-waiting', visit: goto(linkWaitingUrl) },
    { name: 'link-paid-receipt', visit: goto(linkPaidUrl) },
    { name: 'link-paid-closed', visit: goto(paidLink.link) },
    { name: 'link-switched-off', visit: goto(inactiveLink.link) },
    {
      name: 'link-busy',
      visit: async (page) => {
        await page.goto(heldLink.link);
        await submitPhone(page, numbers.success);
      },
    },
    { name: 'consent-form', visit: goto(consent.url) },
    {
      name: 'consent-wrong-code',
      visit: async (page) => {
        await page.goto(wrongCode.url);
        await page.locator('#code').fill(wrongCode.code === '000000' ? '111111' : '000000');
        await Promise.all([page.waitForLoadState(), page.locator('button[value=approve]').click()]);
        await page.waitForLoadState();
      },
    },
    { name: 'consent-approved', visit: goto(approvedConsent.url) },
    { name: 'consent-declined', visit: goto(declinedConsent.url) },
    { name: 'kyc-form', visit: asOwner(kycForm) },
    {
      name: 'kyc-error',
      visit: async (page) => {
        await asOwner(kycForm)(page);
        await page.locator('#dateOfBirth-day').fill('31');
        await page.locator('#dateOfBirth-month').fill('02');
        await Promise.all([page.waitForLoadState(), page.locator('form button[type=submit]').click()]);
        await page.waitForLoadState();
      },
    },
    { name: 'kyc-approved', visit: asOwner(kycApproved) },
    { name: 'kyc-rejected', visit: asOwner(kycRejected) },
    { name: 'sandbox-checkout', visit: goto(checkoutUrl) },
    {
      name: 'sandbox-checkout-error',
      visit: async (page) => {
        await page.goto(checkoutUrl);
        await page.locator('#payerPhone').fill('12345');
        await Promise.all([page.waitForLoadState(), page.locator('button[value=approve]').click()]);
        await page.waitForLoadState();
      },
    },
    { name: 'error-not-found', visit: goto(`${baseUrl}/payment/${randomUUID()}`) },
    {
      name: 'soundbox-qr',
      visit: async (page) => {
        await showSoundboxQr(page);
      },
    },
    {
      name: 'soundbox-paid',
      visit: async (page) => {
        const id = await showSoundboxQr(page);
        await api('POST', `/sandbox/payment_requests/${id}/approve`, {});
        await page
          .locator('#announcement[data-type=payment_received]')
          .waitFor({ timeout: backgroundWorkMs });
      },
    },
  ];
}
