import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { formatAmount } from '#shared/pages/format.ts';
import { apiClient, type Body } from '#test/support/api-client.ts';
import { type DashboardBrowser, signUpOwner } from '#test/support/dashboard.ts';
import {
  heldEscrow,
  memberOf,
  theLocalHost,
  type VerifiedOwner,
  verifiedOwner,
} from '#test/support/dashboard-setup.ts';

/**
 * The dashboard's escrows over the real local host: escrows held through the API with a platform
 * key, listed on the page, released and refunded from it through the API's own transitions (the
 * API then shows them so, and the balance moved once); a second release is a 409 page and moves
 * nothing; roles that may not, forged posts and another business's escrow change nothing.
 */
const { baseUrl } = theLocalHost();
const call = apiClient(baseUrl);

/** Escrows need a platform key. */
let owner: VerifiedOwner;

beforeAll(async () => {
  owner = await verifiedOwner(baseUrl, { key: 'platform' });
});

async function escrowOf(id: string): Promise<Body> {
  const { body } = await call('GET', '/partner_api/escrows', owner.headers);
  return (body as Body[]).find((escrow) => escrow.id === id);
}

const balance = async () =>
  (await call('GET', `/partner_api/stores/${owner.storeId}/balance`, owner.headers)).body.amount as number;

/** The session's CSRF token, from the home page's sign-out form (every role has it). */
const tokenOf = (browser: DashboardBrowser) => browser.csrfOf('/dashboard');

describe('escrows on the dashboard', () => {
  it('lists an escrow held through the API, with its store, amounts, payer, hold and payment', async () => {
    const { escrowId } = await heldEscrow(owner, 250_000);
    const escrow = await escrowOf(escrowId);
    expect(escrow.status).toBe('held');
    const page = await owner.browser.get('/dashboard/escrows?lang=en');
    expect(page.status).toBe(200);
    const item = new RegExp(`<li data-escrow-id="${escrowId}">([\\s\\S]*?)</li>`).exec(page.text)?.[1] ?? '';
    expect(item).toContain('Yopougon');
    expect(item).toContain(formatAmount(250_000));
    expect(item).toContain('+225\u00a007');
    expect(item).toContain('data-escrow-status="held"');
    expect(item).toMatch(/\/dashboard\/transactions\/[0-9a-f-]{36}/);
    expect(item).toContain(`/dashboard/escrows/${escrowId}/release`);
    expect(item).toContain(`/dashboard/escrows/${escrowId}/refund`);
  });

  it('releases after a confirmation showing the amount: the API shows it released, the balance moved once, a second release is a 409 page', async () => {
    const { escrowId } = await heldEscrow(owner);
    const escrow = await escrowOf(escrowId);
    const held = escrow.amount.amount - escrow.fees.amount;
    const before = await balance();

    const confirm = await owner.browser.get(`/dashboard/escrows/${escrowId}/release?lang=en`);
    expect(confirm.status).toBe(200);
    expect(confirm.text).toContain('Release this escrow?');
    const shown = /data-testid="confirm-amount">([^<]+)</.exec(confirm.text)?.[1];
    expect(shown?.replace(/\D/g, '')).toBe(String(held / 100));
    const csrf = /name="csrf" value="([^"]+)"/.exec(confirm.text)?.[1] ?? '';

    const released = await owner.browser.post(`/dashboard/escrows/${escrowId}/release`, { csrf });
    expect(released.status, released.text.slice(0, 300)).toBe(303);
    // Post, then redirect: the escrows page says it is done.
    expect(released.location).toBe(`${baseUrl}/dashboard/escrows?done=released`);
    expect((await owner.browser.get('/dashboard/escrows?done=released&lang=en')).text).toContain(
      'The escrow is released',
    );
    expect((await escrowOf(escrowId)).status).toBe('released');
    expect(await balance()).toBe(before + held);

    // The same form again (a double submit): refused by the transition, one posting only.
    const again = await owner.browser.post(`/dashboard/escrows/${escrowId}/release?lang=en`, { csrf });
    expect(again.status).toBe(409);
    expect(again.text).toContain('It was already released to the point of sale');
    expect(await balance()).toBe(before + held);
    const confirmAgain = await owner.browser.get(`/dashboard/escrows/${escrowId}/release`);
    expect(confirmAgain.status).toBe(409);

    const audit = await owner.browser.get('/dashboard/audit?action=escrow_released&lang=en');
    // One entry: the id is shown once (its title attribute repeats it for the ellipsis).
    expect(audit.text.split(`>${escrowId}<`).length - 1).toBe(1);
  });

  it('refunds another after a confirmation showing the amount and the fee: the API shows it refunding', async () => {
    const { escrowId } = await heldEscrow(owner, 300_000);
    const confirm = await owner.browser.get(`/dashboard/escrows/${escrowId}/refund`);
    expect(confirm.status).toBe(200);
    expect(confirm.text).toContain('Rembourser ce séquestre ?');
    expect(/data-testid="confirm-amount">([^<]+)</.exec(confirm.text)?.[1]).toBe(formatAmount(300_000));
    expect(confirm.text).toContain('data-testid="confirm-fee"');
    const csrf = /name="csrf" value="([^"]+)"/.exec(confirm.text)?.[1] ?? '';
    const refunded = await owner.browser.post(`/dashboard/escrows/${escrowId}/refund`, { csrf });
    expect(refunded.status, refunded.text.slice(0, 300)).toBe(303);
    expect(['refunding', 'refunded']).toContain((await escrowOf(escrowId)).status);
    const audit = await owner.browser.get('/dashboard/audit?action=escrow_refunded');
    expect(audit.text).toContain(escrowId);
    const again = await owner.browser.post(`/dashboard/escrows/${escrowId}/refund`, { csrf });
    expect(again.status).toBe(409);
  });

  it('refuses viewer and finance (403, nothing moves) and shows them the list without the buttons', async () => {
    const { escrowId } = await heldEscrow(owner);
    for (const role of ['viewer', 'finance'] as const) {
      const browser = await memberOf(owner, role);
      const list = await browser.get('/dashboard/escrows');
      expect(list.status).toBe(200);
      expect(list.text).toContain(`data-escrow-id="${escrowId}"`);
      expect(list.text).not.toContain(`/dashboard/escrows/${escrowId}/release`);
      expect((await browser.get(`/dashboard/escrows/${escrowId}/release`)).status).toBe(403);
      const csrf = await tokenOf(browser);
      expect((await browser.post(`/dashboard/escrows/${escrowId}/release`, { csrf })).status).toBe(403);
      expect((await browser.post(`/dashboard/escrows/${escrowId}/refund`, { csrf })).status).toBe(403);
    }
    expect((await escrowOf(escrowId)).status).toBe('held');
  });

  it('refuses a post without the CSRF token or from another Origin (403, nothing moves)', async () => {
    const { escrowId } = await heldEscrow(owner);
    const csrf = await tokenOf(owner.browser);
    expect((await owner.browser.post(`/dashboard/escrows/${escrowId}/release`, {})).status).toBe(403);
    expect(
      (await owner.browser.post(`/dashboard/escrows/${escrowId}/release`, { csrf: 'forged' })).status,
    ).toBe(403);
    expect(
      (
        await owner.browser.post(
          `/dashboard/escrows/${escrowId}/release`,
          { csrf },
          { origin: 'https://evil.example' },
        )
      ).status,
    ).toBe(403);
    expect((await escrowOf(escrowId)).status).toBe('held');
  });

  it('answers 400 for a body that is not a form and 404 for an id that is no escrow, and moves nothing', async () => {
    const { escrowId } = await heldEscrow(owner);
    const csrf = await tokenOf(owner.browser);
    const notAForm = await fetch(`${baseUrl}/dashboard/escrows/${escrowId}/release`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/json', origin: baseUrl, cookie: owner.browser.cookieHeader },
      body: JSON.stringify({ csrf }),
    });
    expect(notAForm.status).toBe(400);
    for (const junk of ['not-an-id', randomUUID(), '%3Cscript%3E']) {
      expect((await owner.browser.post(`/dashboard/escrows/${junk}/release`, { csrf })).status).toBe(404);
      expect((await owner.browser.get(`/dashboard/escrows/${junk}/refund`)).status).toBe(404);
    }
    expect((await escrowOf(escrowId)).status).toBe('held');
  });

  it('answers 404 for another business’s escrow, and moves nothing', async () => {
    const { escrowId } = await heldEscrow(owner);
    const other = await signUpOwner(baseUrl);
    expect((await other.browser.get(`/dashboard/escrows/${escrowId}/release`)).status).toBe(404);
    expect((await other.browser.get(`/dashboard/escrows/${escrowId}/refund`)).status).toBe(404);
    const csrf = await tokenOf(other.browser);
    expect((await other.browser.post(`/dashboard/escrows/${escrowId}/release`, { csrf })).status).toBe(404);
    expect((await other.browser.post(`/dashboard/escrows/${escrowId}/refund`, { csrf })).status).toBe(404);
    expect((await other.browser.get('/dashboard/escrows')).text).not.toContain(escrowId);
    expect((await escrowOf(escrowId)).status).toBe('held');
  });
});
