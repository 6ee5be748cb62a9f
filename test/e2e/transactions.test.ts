import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { apiClient, type Merchant, newMerchant } from '#test/support/api-client.ts';
import { admin } from '#test/support/local-host.ts';
import { redirectRequestBody } from '#test/support/payment-request-body.ts';

const { config, dataDir } = inject('localHost');
const call = apiClient(config.baseUrl);

let merchant: Merchant;
let secondStore: string;

/** Completes a payment through the sandbox: the way a transaction-list line comes to exist. */
async function completedPayment(storeId: string, phone = '+2250700000001') {
  const created = await call(
    'POST',
    '/partner_api/payment_requests',
    merchant.headers,
    redirectRequestBody(storeId, {
      amountCents: 10_000,
      reference: `list-${randomUUID()}`,
      paymentMethod: 'mtn',
      data: { successUrl: 'https://a.example/ok', errorUrl: 'https://a.example/ko' },
    }),
  );
  const done = await call('POST', `/sandbox/payment_requests/${created.body.id}/approve`, merchant.headers, {
    payerPhone: phone,
  });
  return done.body;
}

const list = (query: string, headers = merchant.headers) =>
  call('GET', `/partner_api/transactions${query}`, headers);

beforeAll(async () => {
  merchant = await newMerchant(dataDir, 'Pharmacie');
  ({ storeId: secondStore } = (await admin(
    dataDir,
    'create-store',
    '--business',
    merchant.businessId,
    '--name',
    'Annexe',
  )) as {
    storeId: string;
  });
  for (let i = 0; i < 250; i += 10) {
    await Promise.all(Array.from({ length: 10 }, () => completedPayment(merchant.storeId)));
  }
  await completedPayment(secondStore, '+2250700000002');
}, 180_000);

describe('GET /partner_api/transactions', () => {
  it('pages 250 payments as 100, 100 and 50 with the right totals and no item twice', async () => {
    const pages = [];
    for (let page = 1; page <= 3; page++)
      pages.push((await list(`?storeId=${merchant.storeId}&limit=100&page=${page}`)).body);
    expect(pages.map((p) => p.data.length)).toEqual([100, 100, 50]);
    expect(pages.map((p) => [p.total, p.perPage, p.currentPage])).toEqual([
      [250, 100, 1],
      [250, 100, 2],
      [250, 100, 3],
    ]);
    const ids = pages.flatMap((p) => p.data.map((t: { id: string }) => t.id));
    expect(new Set(ids).size).toBe(250);
    const times = pages.flatMap((p) => p.data.map((t: { createdAt: string }) => t.createdAt));
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('neither repeats nor misses an item when a payment arrives between pages', async () => {
    const first = (await list(`?storeId=${merchant.storeId}&limit=100&page=1`)).body;
    await completedPayment(merchant.storeId);
    const second = (await list(`?storeId=${merchant.storeId}&limit=100&page=2`)).body;
    const third = (await list(`?storeId=${merchant.storeId}&limit=100&page=3`)).body;
    const ids = [first, second, third].flatMap((p) => p.data.map((t: { id: string }) => t.id));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toHaveLength(first.total);
    // Asking page 1 again starts a fresh listing that includes the new payment.
    expect((await list(`?storeId=${merchant.storeId}&limit=100&page=1`)).body.total).toBe(first.total + 1);
  });

  it('shapes items as the interface Transaction, with the payment request they come from', async () => {
    const { body } = await list(`?storeId=${secondStore}`);
    expect(body.total).toBe(1);
    expect(body.data[0]).toMatchObject({
      type: 'payment',
      status: 'error',
      amount: { amount: 10_000, currency: 'XOF' },
      fees: { amount: 0, currency: 'XOF' },
      currency: 'XOF',
      paymentMethod: 'mtn',
      counterpartIdentifier: '+2250700000002',
      storeId: secondStore,
    });
    expect(body.data[0].transactionDetails.id).toBe(body.data[0].paymentRequestId);
    expect(body.data[0].reference).toMatch(/^list-/);
  });

  it('lists the whole business without storeId, by default over the last 7 days, 100 a page', async () => {
    const { status, body } = await list('');
    expect(status).toBe(200);
    expect(body.perPage).toBe(100);
    expect(body.currentPage).toBe(1);
    expect(body.total).toBeGreaterThanOrEqual(252);
  });

  it('finds nothing in a range before the payments', async () => {
    expect((await list('?startDate=2026-01-01&endDate=2026-01-31')).body).toMatchObject({
      total: 0,
      data: [],
    });
  });

  it.each([
    ['page 0', '?page=0', 'page', 'min'],
    ['page not a number', '?page=two', 'page', 'type'],
    ['limit 0', '?limit=0', 'limit', 'min'],
    ['limit 101', '?limit=101', 'limit', 'max'],
    ['storeId not a UUID', '?storeId=shop-1', 'storeId', 'uuid'],
    ['startDate not a date', '?startDate=2026-13-01', 'startDate', 'date'],
    ['startDate in another format', '?startDate=01/11/2026', 'startDate', 'format'],
    ['endDate before startDate', '?startDate=2026-06-10&endDate=2026-06-01', 'endDate', 'after_or_equal'],
    ['more than 90 days', '?startDate=2026-01-01&endDate=2026-04-02', 'endDate', 'max_range'],
  ])('answers 422 naming the field when %s', async (_case, query, field, rule) => {
    const { status, body } = await list(query);
    expect(status).toBe(422);
    expect(body.id).toBe('validation_error');
    expect(body.extras.errors).toEqual([expect.objectContaining({ field, rule })]);
  });

  it('accepts exactly 90 days', async () => {
    expect((await list('?startDate=2026-01-01&endDate=2026-04-01')).status).toBe(200);
  });

  it("answers 404 for another business's store", async () => {
    const other = await newMerchant(dataDir, 'Autre');
    const { status, body } = await list(`?storeId=${merchant.storeId}`, other.headers);
    expect(status).toBe(404);
    expect(body.id).toBe('store_not_found');
  });
});
