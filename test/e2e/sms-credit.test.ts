import { describe, expect, it } from 'vitest';
import { apiClient } from '#test/support/api-client.ts';
import { newDashboardPhone } from '#test/support/dashboard.ts';
import {
  auditActionsOf,
  itemsOf,
  listedByTheApi,
  memberOf,
  theLocalHost,
  verifiedOwner,
} from '#test/support/dashboard-setup.ts';

/**
 * SMS credit bought from a store's balance (issue 34, item 4) on the local host over real HTTP: a
 * new business with money in its store and no SMS buys a pack on the SMS page (a check step with
 * the price, then the purchase), its first "ask for a payment by SMS" then goes out with no
 * operator command; the purchase is a ledger entry, a `sms_credit` line and an audit entry. Short
 * of balance nothing is bought; a viewer may not; the API does the same, once per Idempotency-Key.
 */
const { baseUrl } = theLocalHost();
const call = apiClient(baseUrl);

const storeBalance = async (headers: Record<string, string>, storeId: string) =>
  ((await call('GET', `/partner_api/stores/${storeId}/balance`, headers)).body as { amount: number }).amount;

describe('buying SMS credit', () => {
  it('on the SMS page, pays from the store, and the first ask for a payment by SMS goes out', async () => {
    const owner = await verifiedOwner(baseUrl, { creditCents: 1_000_000 });
    const empty = await owner.browser.get('/dashboard/sms');
    expect(empty.text).toContain('Solde : 0 SMS');
    expect(empty.text).toContain('Le solde est vide');
    const csrf = /name="csrf" value="([^"]+)"/.exec(empty.text)?.[1] ?? '';

    const check = await owner.browser.post('/dashboard/sms/credit', {
      csrf,
      segments: '100',
      storeId: owner.storeId,
    });
    expect(check.status, check.text.slice(0, 300)).toBe(200);
    expect(check.text).toMatch(/2\s500\sF\sCFA/);
    expect(await itemsOf(owner.businessId, 'SMSCREDIT#')).toHaveLength(0);
    const key = /name="idempotencyKey" value="([^"]+)"/.exec(check.text)?.[1] ?? '';

    const form = { csrf, segments: '100', storeId: owner.storeId, idempotencyKey: key };
    const bought = await owner.browser.post('/dashboard/sms/credit', form);
    expect(bought.status, bought.text.slice(0, 300)).toBe(303);
    // A double tap pays once.
    expect((await owner.browser.post('/dashboard/sms/credit', form)).status).toBe(303);
    expect((await owner.browser.get('/dashboard/sms')).text).toContain('Solde : 100 SMS');
    expect(await storeBalance(owner.headers, owner.storeId)).toBe(1_000_000 - 250_000);
    const lines = await listedByTheApi(baseUrl, owner.headers, `storeId=${owner.storeId}`);
    const line = lines.find((each) => each.type === 'sms_credit');
    expect(line).toMatchObject({ status: 'success', amount: { amount: 250_000, currency: 'XOF' } });
    expect(lines.filter((each) => each.type === 'sms_credit')).toHaveLength(1);
    expect(await auditActionsOf(owner.businessId)).toContain('sms_credit_bought');

    // The business's first ask for a payment by SMS, with no operator command.
    const page = await owner.browser.get('/dashboard/payment-requests');
    const askCsrf = /name="csrf" value="([^"]+)"/.exec(page.text)?.[1] ?? '';
    const asked = await owner.browser.post('/dashboard/payment-requests', {
      csrf: askCsrf,
      storeId: owner.storeId,
      amount: '1 500',
      payerPhone: newDashboardPhone(),
      note: 'Commande 7',
      confirm: 'yes',
    });
    expect(asked.status, asked.text.slice(0, 300)).toBe(303);
    // Its text names the store ("Maquis Aïcha": UCS-2), two segments off the 100.
    expect((await owner.browser.get('/dashboard/sms')).text).toContain('Solde : 98 SMS');
  });

  it('refuses with a clear message when the store cannot pay, and writes nothing', async () => {
    const owner = await verifiedOwner(baseUrl, { creditCents: 100_000 });
    const csrf = await owner.browser.csrfOf('/dashboard/sms');
    const check = await owner.browser.post('/dashboard/sms/credit', {
      csrf,
      segments: '500',
      storeId: owner.storeId,
    });
    expect(check.status).toBe(422);
    expect(check.text).toContain('ne couvre pas le prix');
    expect(check.text).not.toContain('Acheter pour');
    const key = /name="idempotencyKey" value="([^"]+)"/.exec(check.text)?.[1] ?? '';
    const forced = await owner.browser.post('/dashboard/sms/credit', {
      csrf,
      segments: '500',
      storeId: owner.storeId,
      idempotencyKey: key,
    });
    expect(forced.status).toBe(422);
    expect(await itemsOf(owner.businessId, 'SMSCREDIT#')).toHaveLength(0);
    expect(await storeBalance(owner.headers, owner.storeId)).toBe(100_000);
  });

  it('is not a viewer’s to do, nor a post without the form’s token, nor another business’s store', async () => {
    const owner = await verifiedOwner(baseUrl, { creditCents: 1_000_000 });
    const other = await verifiedOwner(baseUrl, { creditCents: 1_000_000 });
    const viewer = await memberOf(owner, 'viewer');
    const viewerCsrf = await viewer.csrfOf('/dashboard');
    expect((await viewer.get('/dashboard/sms')).text).not.toContain('Acheter du crédit SMS');
    const refused = await viewer.post('/dashboard/sms/credit', {
      csrf: viewerCsrf,
      segments: '100',
      storeId: owner.storeId,
    });
    expect(refused.status).toBe(403);
    const csrf = await owner.browser.csrfOf('/dashboard/sms');
    expect(
      (
        await owner.browser.post('/dashboard/sms/credit', {
          csrf: 'forged',
          segments: '100',
          storeId: owner.storeId,
        })
      ).status,
    ).toBe(403);
    expect(
      (await owner.browser.post('/dashboard/sms/credit', { csrf, segments: '100', storeId: other.storeId }))
        .status,
    ).toBe(404);
    expect(await storeBalance(other.headers, other.storeId)).toBe(1_000_000);
  });

  it('through the API, once per Idempotency-Key, and refused short of balance', async () => {
    const owner = await verifiedOwner(baseUrl, { creditCents: 300_000 });
    const headers = { ...owner.headers, 'Idempotency-Key': crypto.randomUUID() };
    const body = { storeId: owner.storeId, segments: 100 };
    const first = await call('POST', '/partner_api/sms_credit_purchases', headers, body);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body).toMatchObject({
      segments: 100,
      price: { amount: 250_000, currency: 'XOF' },
      smsBalance: 100,
    });
    const again = await call('POST', '/partner_api/sms_credit_purchases', headers, body);
    expect(again.body).toEqual(first.body);
    const short = await call('POST', '/partner_api/sms_credit_purchases', owner.headers, body);
    expect(short.status).toBe(422);
    expect(short.body).toMatchObject({ id: 'insufficient_balance' });
    const bad = await call('POST', '/partner_api/sms_credit_purchases', owner.headers, {
      storeId: owner.storeId,
      segments: 5,
    });
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body)).toContain('segments');
    expect(await storeBalance(owner.headers, owner.storeId)).toBe(50_000);
  });
});
