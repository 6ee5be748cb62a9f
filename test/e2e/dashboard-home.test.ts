import { describe, expect, it } from 'vitest';
import { formatAmount } from '#shared/pages/format.ts';
import { apiClient } from '#test/support/api-client.ts';
import { DashboardBrowser, newDashboardPhone, signUpOwner } from '#test/support/dashboard.ts';
import { theLocalHost, type VerifiedOwner, verifiedOwner } from '#test/support/dashboard-setup.ts';
import { paidPayment } from '#test/support/paid-payments.ts';

/**
 * The dashboard's home on the local host over real HTTP: a payment made through the API and paid
 * in the sandbox shows on the home page with the amounts the API gives (the store's balance, the
 * transaction list's line), in today's and the 30 days' totals and the chart; every role may read
 * it; another business's home shows none of it.
 */
const { config, baseUrl } = theLocalHost();
const call = apiClient(baseUrl);

/** The text of the element carrying `data-testid="<id>"` (the first, or the one inside `scope`). */
const testId = (page: string, id: string) =>
  new RegExp(`data-testid="${id}"[^>]*>([^<]*)<`).exec(page)?.[1] ?? null;

/** A payment of the store, paid in the sandbox through MTN. */
const sandboxPayment = (owner: VerifiedOwner, amountCents: number) =>
  paidPayment(config, owner.headers, {
    storeId: owner.storeId,
    amountCents,
    paymentMethod: 'mtn',
    payerPhone: '+2250700000001',
  });

describe('the dashboard home', () => {
  it('shows a sandbox payment with the amounts the API gives: balance, totals, chart and latest line', async () => {
    const owner = await verifiedOwner(baseUrl);
    const empty = await owner.browser.get('/dashboard');
    expect(empty.status).toBe(200);
    expect(testId(empty.text, 'available')).toBe(formatAmount(0));
    expect(empty.text).toContain('data-testid="latest"');
    expect(testId(empty.text, 'role')).toBe('Propriétaire');

    await sandboxPayment(owner, 250_000);
    await sandboxPayment(owner, 120_000);
    const balance = await call('GET', `/partner_api/stores/${owner.storeId}/balance`, owner.headers);
    const list = await call('GET', `/partner_api/transactions?storeId=${owner.storeId}`, owner.headers);
    expect(list.body.total).toBe(2);

    const home = await owner.browser.get('/dashboard');
    expect(home.status).toBe(200);
    expect(home.text).toContain(`data-store-id="${owner.storeId}"`);
    expect(testId(home.text, 'available')).toBe(formatAmount(balance.body.amount));
    expect(testId(home.text, 'held')).toBe(formatAmount(0));
    expect(testId(home.text, 'reserved')).toBe(formatAmount(0));
    const collected = list.body.data.reduce(
      (sum: number, line: { amount: { amount: number } }) => sum + line.amount.amount,
      0,
    );
    expect(collected).toBe(370_000);
    expect(testId(home.text, 'today-collected')).toBe(formatAmount(collected));
    expect(testId(home.text, 'last-days-collected')).toBe(formatAmount(collected));
    expect(testId(home.text, 'today-refunded')).toBe(formatAmount(0));
    expect(testId(home.text, 'today-paidOut')).toBe(formatAmount(0));
    // The month's ceiling use, as part 1 showed it, agrees.
    expect(testId(home.text, 'collected')).toBe(formatAmount(collected));

    // The latest lines are the list's, newest first, each with its amount and a link to its page.
    const lines = [
      ...home.text.matchAll(
        /data-testid="latest-line" data-transaction-id="([^"]+)"[\s\S]*?data-testid="latest-amount">([^<]*)</g,
      ),
    ].map((match) => [match[1], match[2]]);
    expect(lines).toEqual(
      list.body.data.map((line: { id: string; amount: { amount: number } }) => [
        line.id,
        formatAmount(line.amount.amount),
      ]),
    );
    for (const line of list.body.data)
      expect(home.text).toContain(
        `href="${baseUrl}/dashboard/transactions/${line.id}?at=${encodeURIComponent(line.createdAt)}"`,
      );

    // The chart is drawn on the server, named and described, its figures in a table too.
    expect(home.text).toMatch(/<svg [^>]*role="img" aria-labelledby="chart-0-title chart-0-desc"/);
    expect(home.text).toContain('<title id="chart-0-title">');
    expect(home.text).toContain(`Total : ${formatAmount(collected)}.`);
    expect(home.text).not.toContain('<script');

    // In English, the same figures.
    const english = await owner.browser.get('/dashboard?lang=en');
    expect(testId(english.text, 'available')).toBe(formatAmount(balance.body.amount));
    expect(english.text).toContain('Latest transactions');
    expect(english.text).toContain(`Total: ${formatAmount(collected)}.`);

    // Another business's home shows none of it.
    const other = await signUpOwner(baseUrl);
    const theirs = await other.browser.get('/dashboard');
    expect(testId(theirs.text, 'available')).toBe(formatAmount(0));
    for (const line of list.body.data) expect(theirs.text).not.toContain(line.id);
    expect(theirs.text).not.toContain(owner.storeId);
  });

  it('is every role’s: a viewer reads the same money, without the owner’s identity check', async () => {
    const owner = await verifiedOwner(baseUrl);
    await sandboxPayment(owner, 80_000);
    const phone = newDashboardPhone();
    const invited = await owner.browser.post('/dashboard/team/invitations', {
      csrf: await owner.browser.csrfOf('/dashboard/team'),
      firstName: 'Awa',
      lastName: 'Koné',
      phone,
      role: 'viewer',
    });
    expect(invited.status).toBe(303);
    const viewer = new DashboardBrowser(baseUrl);
    await viewer.signInWith(phone);
    const home = await viewer.get('/dashboard');
    expect(home.status).toBe(200);
    expect(testId(home.text, 'role')).toBe('Lecture seule');
    expect(testId(home.text, 'today-collected')).toBe(formatAmount(80_000));
    const ownerHome = await owner.browser.get('/dashboard');
    expect(testId(home.text, 'available')).toBe(testId(ownerHome.text, 'available'));
    expect(home.text).not.toContain('/dashboard/verification"');
  });

  it('sends a visitor without a session to sign in', async () => {
    const answer = await new DashboardBrowser(baseUrl).get('/dashboard');
    expect(answer.status).toBe(303);
    expect(answer.location).toContain('/dashboard/sign-in');
  });
});
