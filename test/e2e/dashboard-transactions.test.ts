import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { formatAmount, shortReference } from '#shared/pages/format.ts';
import { apiClient, type Body } from '#test/support/api-client.ts';
import { backgroundWorkMs } from '#test/support/dashboard.ts';
import {
  expectErrorSummary,
  memberOf,
  theLocalHost,
  type VerifiedOwner,
  verifiedOwner,
} from '#test/support/dashboard-setup.ts';
import { admin } from '#test/support/local-host.ts';
import { paidPayment, paymentRequestBody } from '#test/support/paid-payments.ts';
import { startWebhookReceiver, type WebhookReceiver } from '#test/support/webhook-receiver.ts';

/**
 * The dashboard's transactions on the local host over real HTTP, as a browser without JavaScript
 * uses them: the list and the API's agree, the filters and the search (reference, receipt, payer,
 * id) find what they should, a refund in part goes through the API's operation (the refund list,
 * the balance and the transaction list agree, a double post refunds once, more than remains is
 * refused), a pending request is cancelled; roles, forged posts and another business's ids change
 * nothing.
 */
const { config, dataDir, baseUrl } = theLocalHost();
const call = apiClient(baseUrl);
/** Paid back by the sandbox, its callback a moment later. */
const payer = '+2250700000017';

let receiver: WebhookReceiver;

type Shop = VerifiedOwner;
/** A verified business with some balance besides its payments: its refunds are paid out of it. */
const shop = () => verifiedOwner(baseUrl, { creditCents: 1_000_000 });

const pay = (of: Shop, amountCents: number, paymentMethod = 'orange') =>
  paidPayment(config, of.headers, { storeId: of.storeId, amountCents, paymentMethod, payerPhone: payer });

const balance = async (of: Shop) =>
  (await call('GET', `/partner_api/stores/${of.storeId}/balance`, of.headers)).body.amount as number;

const refundsOf = async (of: Shop, paymentRequestId: string) =>
  (await call('GET', `/partner_api/refunds?paymentRequestId=${paymentRequestId}`, of.headers)).body;

/** The ids of the page's lines, in order. */
const rowIds = (text: string) =>
  [...text.matchAll(/data-transaction-id="([^"]+)"/g)].map((match) => match[1]);
/** The page's link to a line's page (with its `at`). */
const detailLink = (text: string, id: string) =>
  (new RegExp(`data-transaction-id="${id}"[\\s\\S]*?<a href="([^"]+)"`).exec(text)?.[1] ?? '').replaceAll(
    '&amp;',
    '&',
  );
const pathOf = (url: string) => url.replace(baseUrl, '');
const csrfOfPage = (text: string) => /name="csrf" value="([^"]+)"/.exec(text)?.[1] ?? '';

beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await receiver?.close();
});

describe('the transactions list', () => {
  it('lists what the API lists, and its filters and search find each payment', async () => {
    const owner = await shop();
    const first = await pay(owner, 150_000, 'orange');
    const second = await pay(owner, 250_000, 'wave');
    const listed = await call('GET', `/partner_api/transactions?storeId=${owner.storeId}`, owner.headers);
    const lines = listed.body.data as Body[];
    expect(lines.map((line) => line.paymentRequestId)).toEqual([second, first]);

    const page = await owner.browser.get('/dashboard/transactions');
    expect(page.status).toBe(200);
    expect(rowIds(page.text)).toEqual(lines.map((line) => line.id));
    for (const line of lines) expect(page.text).toContain(formatAmount(line.amount.amount));
    expect(page.text).toContain('data-testid="total">2 transactions');
    // Finance and owners export: the link carries the same filters.
    expect(page.text).toMatch(/href="[^"]*\/dashboard\/transactions\/export\?from=\d{4}-\d{2}-\d{2}&amp;to=/);

    const [secondLine, firstLine] = lines as [Body, Body];
    const search = async (q: string, extra = '') =>
      rowIds((await owner.browser.get(`/dashboard/transactions?q=${encodeURIComponent(q)}${extra}`)).text);
    expect(await search(firstLine.reference)).toEqual([firstLine.id]);
    expect(await search(first)).toEqual([firstLine.id]);
    expect(await search(firstLine.id)).toEqual([firstLine.id]);
    expect(await search(shortReference(secondLine.id))).toEqual([secondLine.id]);
    // The payer's number in any form the phone module reads, in the store's country.
    expect(await search('07 00 00 00 17')).toEqual([secondLine.id, firstLine.id]);
    expect(await search('+225 0700000017', '&operator=wave')).toEqual([secondLine.id]);
    expect(await search('no-such-reference')).toEqual([]);

    const filtered = async (query: string) =>
      rowIds((await owner.browser.get(`/dashboard/transactions?${query}`)).text);
    expect(await filtered('operator=orange')).toEqual([firstLine.id]);
    expect(await filtered('type=payment&status=success')).toEqual([secondLine.id, firstLine.id]);
    expect(await filtered('type=refund')).toEqual([]);
    expect(await filtered(`store=${owner.storeId}`)).toEqual([secondLine.id, firstLine.id]);
    expect(await filtered('from=2020-01-01&to=2020-01-31')).toEqual([]);

    const tooLong = await owner.browser.get('/dashboard/transactions?from=2020-01-01&to=2020-12-31');
    expectErrorSummary(tooLong, 200, 'from');
    expect(tooLong.text).toContain('Choisissez au plus 90 jours.');
    const wrongType = await owner.browser.get('/dashboard/transactions?type=gift&lang=en');
    expect(wrongType.text).toContain('This choice does not exist: it is ignored.');

    // A line's page, from the list's link.
    const detail = await owner.browser.get(pathOf(detailLink(page.text, firstLine.id)));
    expect(detail.status).toBe(200);
    expect(detail.text).toContain(formatAmount(150_000));
    expect(detail.text).toContain(firstLine.reference);
    expect(detail.text).toContain('data-testid="provider-answer"');
    // The same page by the line's id alone, and by the payment request's id.
    expect((await owner.browser.get(`/dashboard/transactions/${firstLine.id}`)).text).toContain(
      firstLine.reference,
    );
    expect((await owner.browser.get(`/dashboard/transactions/${first}`)).text).toContain(firstLine.reference);
  }, 180_000);

  it('shows the export link only to roles that may export', async () => {
    const owner = await shop();
    const viewer = await memberOf(owner, 'viewer');
    const page = await viewer.get('/dashboard/transactions?type=payment');
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('/dashboard/transactions/export');
  }, 120_000);
});

describe('refunds from a transaction’s page', () => {
  it('refunds part of a payment after a confirmation with its fee; the API, the balance and the list agree; a double post refunds once', async () => {
    const owner = await shop();
    await admin(dataDir, 'set-webhook', '--business', owner.businessId, '--url', receiver.url);
    const paymentId = await pay(owner, 300_000, 'orange');
    const page = await owner.browser.get(`/dashboard/transactions/${paymentId}`);
    expect(page.text).toContain('name="amount"');
    const csrf = csrfOfPage(page.text);
    const refundPath = /action="([^"]+\/refund[^"]*)"/.exec(page.text)?.[1]?.replaceAll('&amp;', '&') ?? '';

    // More than remains: the form again, saying so, nothing written.
    const tooMuch = await owner.browser.post(pathOf(refundPath), { csrf, amount: '5000' });
    expectErrorSummary(tooMuch, 400, 'amount');
    expect(tooMuch.text).toContain(formatAmount(300_000));
    const junk = await owner.browser.post(pathOf(refundPath), { csrf, amount: 'mille' });
    expect(junk.status).toBe(400);

    const confirm = await owner.browser.post(pathOf(refundPath), { csrf, amount: '1 000' });
    expect(confirm.status, confirm.text.slice(0, 300)).toBe(200);
    expect(confirm.text).toContain(`data-testid="confirm-amount">${formatAmount(100_000)}`);
    const fee = /data-testid="confirm-fee">([^<]+)</.exec(confirm.text)?.[1];
    const key = /name="key" value="([^"]+)"/.exec(confirm.text)?.[1] ?? '';
    const confirmPath =
      /action="([^"]+\/refund\/confirm[^"]*)"/.exec(confirm.text)?.[1]?.replaceAll('&amp;', '&') ?? '';
    expect((await refundsOf(owner, paymentId)).total).toBe(0);

    const before = await balance(owner);
    const done = await owner.browser.post(pathOf(confirmPath), { csrf, amountCents: '100000', key });
    expect(done.status, done.text.slice(0, 300)).toBe(303);
    const again = await owner.browser.post(pathOf(confirmPath), { csrf, amountCents: '100000', key });
    expect(again.status).toBe(303);

    const refunds = await refundsOf(owner, paymentId);
    expect(refunds.total).toBe(1);
    const [refund] = refunds.data as [Body];
    expect(refund.amount).toEqual({ amount: 100_000, currency: 'XOF' });
    // The fee shown is the fee the operation charged.
    expect(fee).toBe(formatAmount(refund.fees.amount));
    expect(await balance(owner)).toBe(before - 100_000 - refund.fees.amount);

    const lines = (await call('GET', `/partner_api/transactions?storeId=${owner.storeId}`, owner.headers))
      .body.data as Body[];
    const refundLine = lines.find((line) => line.refundId === refund.id);
    expect(refundLine).toMatchObject({ type: 'refund', amount: { amount: 100_000, currency: 'XOF' } });
    const refundRows = rowIds((await owner.browser.get('/dashboard/transactions?type=refund')).text);
    expect(refundRows).toEqual([refundLine.id]);
    const detail = await owner.browser.get(`/dashboard/transactions/${paymentId}`);
    expect(detail.text).toContain(`data-refund-id="${refund.id}"`);
    expect(detail.text).toContain(formatAmount(200_000)); // what remains refundable

    // Over-refund at the confirmation (a form kept from before): 409, nothing written.
    const over = await owner.browser.post(pathOf(confirmPath), {
      csrf,
      amountCents: '250000',
      key: randomUUID(),
    });
    expect(over.status).toBe(409);
    expect(over.text).toContain(formatAmount(200_000));
    expect((await refundsOf(owner, paymentId)).total).toBe(1);

    const audit = await owner.browser.get('/dashboard/audit?action=refund_made');
    expect(audit.text).toContain(refund.id);

    // The payment's webhook delivery, in its timeline, sent again from there.
    const deliveries = async () => {
      const text = (await owner.browser.get(`/dashboard/transactions/${paymentId}`)).text;
      return [...text.matchAll(/data-delivery-id="([^"]+)"/g)].map((match) => match[1] as string);
    };
    const shown = await vi.waitFor(
      async () => {
        const ids = await deliveries();
        expect(ids.length).toBeGreaterThan(0);
        return ids;
      },
      { timeout: backgroundWorkMs, interval: 250 },
    );
    const resent = await owner.browser.post(
      `/dashboard/transactions/${paymentId}/deliveries/${shown[0]}/resend`,
      {
        csrf,
      },
    );
    expect(resent.status).toBe(303);
    expect(resent.location).toBe(`${baseUrl}/dashboard/transactions/${paymentId}`);
    expect((await deliveries()).length).toBe(shown.length + 1);
  }, 180_000);

  it('lets finance refund, refuses a viewer (403, nothing written) and forged posts', async () => {
    const owner = await shop();
    const paymentId = await pay(owner, 200_000, 'orange');
    const finance = await memberOf(owner, 'finance');
    const viewer = await memberOf(owner, 'viewer');

    const viewerPage = await viewer.get(`/dashboard/transactions/${paymentId}`);
    expect(viewerPage.status).toBe(200);
    expect(viewerPage.text).not.toContain('name="amount"');
    const viewerCsrf = await viewer.csrfOf();
    const base = `/dashboard/transactions/${paymentId}`;
    expect((await viewer.post(`${base}/refund`, { csrf: viewerCsrf, amount: '500' })).status).toBe(403);
    expect(
      (
        await viewer.post(`${base}/refund/confirm`, {
          csrf: viewerCsrf,
          amountCents: '50000',
          key: randomUUID(),
        })
      ).status,
    ).toBe(403);
    expect((await viewer.post(`${base}/cancel`, { csrf: viewerCsrf })).status).toBe(403);

    const ownerCsrf = csrfOfPage((await owner.browser.get(base)).text);
    const noCsrf = await owner.browser.post(`${base}/refund/confirm`, {
      amountCents: '50000',
      key: randomUUID(),
    });
    expect(noCsrf.status).toBe(403);
    const foreign = await owner.browser.post(
      `${base}/refund/confirm`,
      { csrf: ownerCsrf, amountCents: '50000', key: randomUUID() },
      { origin: 'https://evil.example' },
    );
    expect(foreign.status).toBe(403);
    expect((await refundsOf(owner, paymentId)).total).toBe(0);

    const financePage = await finance.get(base);
    expect(financePage.text).toContain('name="amount"');
    const financeCsrf = csrfOfPage(financePage.text);
    const done = await finance.post(`${base}/refund/confirm`, {
      csrf: financeCsrf,
      amountCents: '50000',
      key: randomUUID(),
    });
    expect(done.status, done.text.slice(0, 300)).toBe(303);
    expect((await refundsOf(owner, paymentId)).total).toBe(1);
  }, 120_000);
});

describe('cancelling a pending request', () => {
  it('finds the pending request by its reference, cancels it through the API’s operation, and records it', async () => {
    const owner = await shop();
    const body = paymentRequestBody(owner.storeId, 'wave', 120_000);
    const created = await call('POST', '/partner_api/payment_requests', owner.headers, body);
    expect(created.status).toBe(200);
    const id = created.body.id as string;

    const found = await owner.browser.get(`/dashboard/transactions?q=${encodeURIComponent(body.reference)}`);
    expect(rowIds(found.text)).toEqual([id]);
    expect(found.text).toContain('data-status="pending"');
    const page = await owner.browser.get(`/dashboard/transactions/${id}`);
    expect(page.text).toContain(`/dashboard/transactions/${id}/cancel`);
    expect(page.text).not.toContain('name="amount"');
    // The page links to the cancellation's confirmation, whose form carries the session's token.
    const confirmation = await owner.browser.get(`/dashboard/transactions/${id}/cancel`);
    expect(confirmation.status).toBe(200);
    const csrf = csrfOfPage(confirmation.text);

    const cancelled = await owner.browser.post(`/dashboard/transactions/${id}/cancel`, { csrf });
    expect(cancelled.status).toBe(303);
    const request = await call('GET', `/partner_api/payment_requests/${id}`, owner.headers);
    expect(request.body).toMatchObject({ status: 'error', errorReason: 'cancelled' });
    const again = await owner.browser.post(`/dashboard/transactions/${id}/cancel`, { csrf });
    expect(again.status).toBe(409);
    expect((await owner.browser.get('/dashboard/audit?action=payment_cancelled')).text).toContain(id);
  }, 120_000);
});

describe('another business’s transactions', () => {
  it('answers 404 for another business’s line, request or junk, and writes nothing', async () => {
    const [a, b] = await Promise.all([shop(), shop()]);
    const paymentId = await pay(a, 200_000, 'orange');
    const aPage = await a.browser.get('/dashboard/transactions');
    const [lineId] = rowIds(aPage.text) as [string];
    const withAt = pathOf(detailLink(aPage.text, lineId));

    expect((await b.browser.get(withAt)).status).toBe(404);
    expect((await b.browser.get(`/dashboard/transactions/${lineId}`)).status).toBe(404);
    expect((await b.browser.get(`/dashboard/transactions/${paymentId}`)).status).toBe(404);
    expect((await b.browser.get('/dashboard/transactions/not-an-id')).status).toBe(404);
    expect((await b.browser.get(`/dashboard/transactions/${randomUUID()}`)).status).toBe(404);
    expect(rowIds((await b.browser.get(`/dashboard/transactions?q=${paymentId}`)).text)).toEqual([]);

    const csrf = await b.browser.csrfOf();
    const base = `/dashboard/transactions/${paymentId}`;
    expect((await b.browser.post(`${base}/refund`, { csrf, amount: '500' })).status).toBe(404);
    expect(
      (await b.browser.post(`${base}/refund/confirm`, { csrf, amountCents: '50000', key: randomUUID() }))
        .status,
    ).toBe(404);
    expect((await b.browser.post(`${base}/cancel`, { csrf })).status).toBe(404);
    expect((await refundsOf(a, paymentId)).total).toBe(0);
  }, 120_000);
});
