import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  apiClient,
  type Body,
  type Merchant,
  newMerchant,
  platformKey,
  setWebhook,
} from '#test/support/api-client.ts';
import { eventually, receivedWebhook } from '#test/support/eventually.ts';
import { admin } from '#test/support/local-host.ts';
import { paidPayment, paymentRequestBody } from '#test/support/paid-payments.ts';
import { startWebhookReceiver, type WebhookReceiver } from '#test/support/webhook-receiver.ts';

const { config, dataDir } = inject('localHost');
const call = apiClient(config.baseUrl);

const payers = {
  /** Paid back by the sandbox, its callback a moment later. */
  paidBack: '+2250700000017',
  /** Left pending by the sandbox, for its helpers to settle. */
  silent: '+2250700000004',
  /** Refused at once. */
  refused: '+2250700000005',
};

let merchant: Merchant;
let other: Merchant;
let subscribed: Merchant;
let receiver: WebhookReceiver;
let defaultReceiver: WebhookReceiver;

beforeAll(async () => {
  [merchant, other, subscribed] = await Promise.all([
    newMerchant(dataDir, 'Boutique Retours'),
    newMerchant(dataDir, 'Voisin'),
    newMerchant(dataDir, 'Abonné'),
  ]);
  [receiver, defaultReceiver] = await Promise.all([startWebhookReceiver(), startWebhookReceiver()]);
  await Promise.all([
    // One lists REFUND_COMPLETED; the other takes the default events, as a receiver for payments.
    setWebhook(dataDir, subscribed.businessId, receiver.url, 'TRANSACTION_COMPLETED,REFUND_COMPLETED'),
    admin(dataDir, 'set-webhook', '--business', merchant.businessId, '--url', defaultReceiver.url),
    // The store pays refunds out of its balance, which holds payments less their fees: some more.
    admin(dataDir, 'credit', '--store', merchant.storeId, '--amount', '1000000'),
  ]);
});

afterAll(async () => {
  await Promise.all([receiver?.close(), defaultReceiver?.close()]);
});

const api = (method: string, path: string, body?: unknown, headers = merchant.headers) =>
  call(method, path, headers, body);

const balance = async (of = merchant) =>
  (await call('GET', `/partner_api/stores/${of.storeId}/balance`, of.headers)).body.amount as number;

const pay = (amountCents: number, paymentMethod: string, payerPhone = payers.paidBack, of = merchant) =>
  paidPayment(config, of.headers, { storeId: of.storeId, amountCents, paymentMethod, payerPhone });

const refund = (paymentRequestId: string, extra: Record<string, unknown> = {}, of = merchant) =>
  call('POST', '/partner_api/refunds', of.headers, {
    paymentRequestId,
    reference: `retour-${randomUUID()}`,
    ...extra,
  });

const settled = (id: string, of = merchant, timeoutMs = 20_000): Promise<Body> =>
  eventually(
    async () => (await call('GET', `/partner_api/refunds/${id}`, of.headers)).body,
    (body) => body.status !== 'pending',
    { timeoutMs, intervalMs: 250 },
  );

const paymentOf = async (id: string, of = merchant) =>
  (await call('GET', `/partner_api/payment_requests/${id}`, of.headers)).body;

async function audit() {
  const report = await admin<{ ok: boolean; breaks: unknown[]; sumOfAllPostings: number }>(dataDir, 'audit');
  expect(report.breaks).toEqual([]);
  expect(report.sumOfAllPostings).toBe(0);
}

describe('POST /partner_api/refunds', () => {
  it('refunds a whole payment by default: 201 pending, the amount reserved at once, paid back once', async () => {
    // Wave refunds a whole checkout session itself.
    const paymentId = await pay(200_000, 'wave');
    const before = await balance();
    const reference = `retour-${randomUUID()}`;
    const created = await refund(paymentId, { reference, reason: 'Commande annulée' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({
      paymentRequestId: paymentId,
      storeId: merchant.storeId,
      amount: { amount: 200_000, currency: 'XOF' },
      fees: { amount: 0, currency: 'XOF' },
      status: 'pending',
      errorReason: null,
      reference,
      reason: 'Commande annulée',
      paymentMethod: 'wave',
      counterpartIdentifier: payers.paidBack,
    });
    // The store pays back the whole payment: the payment's fee is not returned.
    expect(await balance()).toBe(before - 200_000);

    const done = await settled(created.body.id);
    expect(done).toMatchObject({ id: created.body.id, status: 'success', errorReason: null });
    expect(await balance()).toBe(before - 200_000);
    expect((await paymentOf(paymentId)).amountRefunded).toEqual({ amount: 200_000, currency: 'XOF' });

    const line = (await api('GET', `/partner_api/transactions?storeId=${merchant.storeId}`)).body.data.find(
      (item: Body) => item.refundId === created.body.id,
    );
    expect(line).toMatchObject({
      type: 'refund',
      status: 'success',
      amount: { amount: 200_000, currency: 'XOF' },
      paymentRequestId: paymentId,
      refundId: created.body.id,
      reference,
      description: 'Commande annulée',
      counterpartIdentifier: payers.paidBack,
      transactionDetails: { id: paymentId },
    });

    const again = await refund(paymentId);
    expect(again.status).toBe(409);
    expect(again.body.id).toBe('payment_request_not_refundable');
    await audit();
  });

  it('refunds in two parts, which sum to the payment and no further', async () => {
    // Orange has no refund of its own: each part is a payout to the payer.
    const paymentId = await pay(100_000, 'orange');
    const before = await balance();
    const first = await refund(paymentId, { amountCents: 30_000 });
    const second = await refund(paymentId, { amountCents: 70_000 });
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(await balance()).toBe(before - 100_000);
    expect((await settled(first.body.id)).status).toBe('success');
    expect((await settled(second.body.id)).status).toBe('success');
    expect((await paymentOf(paymentId)).amountRefunded.amount).toBe(100_000);

    const listed = await api('GET', `/partner_api/refunds?paymentRequestId=${paymentId}`);
    expect(listed.body).toMatchObject({ total: 2, perPage: 100, currentPage: 1 });
    expect(listed.body.data.map((item: Body) => item.id)).toEqual([second.body.id, first.body.id]);

    const more = await refund(paymentId, { amountCents: 100 });
    expect(more.status).toBe(409);
    await audit();
  });

  it('never lets partial refunds sent at the same time sum past the payment', async () => {
    const paymentId = await pay(100_000, 'mtn');
    const before = await balance();
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => refund(paymentId, { amountCents: 30_000 })),
    );
    const accepted = answers.filter((answer) => answer.status === 201);
    const refused = answers.filter((answer) => answer.status !== 201);
    expect(accepted).toHaveLength(3);
    for (const answer of refused) {
      expect(answer.status).toBe(422);
      expect(answer.body.extras.errors[0]).toMatchObject({ field: 'amountCents', rule: 'max' });
    }
    expect(await balance()).toBe(before - 90_000);
    const over = await refund(paymentId, { amountCents: 20_000 });
    expect(over.status).toBe(422);
    expect(over.body.extras.errors[0].message).toContain('10000');
    for (const answer of accepted) expect((await settled(answer.body.id)).status).toBe('success');
    expect((await paymentOf(paymentId)).amountRefunded.amount).toBe(90_000);
    // What remains is refundable by default.
    const rest = await refund(paymentId);
    expect(rest.body.amount.amount).toBe(10_000);
    await audit();
  });

  it('answers 422 insufficient_balance when the store’s available balance does not cover it, and takes nothing', async () => {
    const poor = await newMerchant(dataDir, 'Petite Boutique');
    // The store keeps the payment less its fee: less than the whole payment.
    const paymentId = await pay(100_000, 'orange', payers.paidBack, poor);
    const kept = await balance(poor);
    expect(kept).toBeLessThan(100_000);
    const refused = await refund(paymentId, {}, poor);
    expect(refused.status).toBe(422);
    expect(refused.body.id).toBe('insufficient_balance');
    expect(await balance(poor)).toBe(kept);
    expect((await paymentOf(paymentId, poor)).amountRefunded.amount).toBe(0);
    // Nothing was taken from the payment either: what the balance covers is still refundable.
    const covered = await refund(paymentId, { amountCents: kept }, poor);
    expect(covered.status).toBe(201);
  });

  it('gives the reserve back when the refund fails, and the amount is refundable again', async () => {
    const paymentId = await pay(50_000, 'orange', payers.silent);
    const before = await balance();
    const created = await refund(paymentId, { amountCents: 20_000 });
    expect(created.body.status).toBe('pending');
    expect(await balance()).toBe(before - 20_000);

    const failed = await api('POST', `/sandbox/refunds/${created.body.id}/fail`);
    expect(failed.status).toBe(200);
    expect(failed.body).toMatchObject({ status: 'error', errorReason: 'declined' });
    expect(await balance()).toBe(before);
    expect((await paymentOf(paymentId)).amountRefunded.amount).toBe(0);
    // Settled once: the helper cannot settle it again.
    expect((await api('POST', `/sandbox/refunds/${created.body.id}/complete`)).status).toBe(409);

    const whole = await refund(paymentId);
    expect(whole.body.amount.amount).toBe(50_000);
    const completed = await api('POST', `/sandbox/refunds/${whole.body.id}/complete`);
    expect(completed.body.status).toBe('success');
    expect(await balance()).toBe(before - 50_000);
    await audit();
  });

  it('is refused at once with 400 when the provider refuses, nothing kept and the reference free', async () => {
    const paymentId = await pay(30_000, 'orange', payers.refused);
    const before = await balance();
    const reference = `retour-${randomUUID()}`;
    const refused = await refund(paymentId, { reference });
    expect(refused.status).toBe(400);
    expect(refused.body.id).toBe('third_party_payment_provider_error');
    expect(await balance()).toBe(before);
    expect((await paymentOf(paymentId)).amountRefunded.amount).toBe(0);
    // The reference was given back, and the whole payment is refundable again.
    const again = await refund(paymentId, { reference });
    expect(again.status).toBe(400);
    const listed = await api('GET', `/partner_api/refunds?paymentRequestId=${paymentId}`);
    expect(listed.body.data.map((item: Body) => [item.status, item.errorReason])).toEqual([
      ['error', 'third_party_payment_provider_error'],
      ['error', 'third_party_payment_provider_error'],
    ]);
    await audit();
  });

  it('answers the first answer again for a repeated Idempotency-Key, and makes one refund', async () => {
    const paymentId = await pay(40_000, 'orange');
    const key = randomUUID();
    const body = { paymentRequestId: paymentId, amountCents: 10_000, reference: `retour-${randomUUID()}` };
    const headers = { ...merchant.headers, 'Idempotency-Key': key };
    const first = await call('POST', '/partner_api/refunds', headers, body);
    const again = await call('POST', '/partner_api/refunds', headers, body);
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(first.body.id);
    const listed = await api('GET', `/partner_api/refunds?paymentRequestId=${paymentId}`);
    expect(listed.body.total).toBe(1);
  });
});

describe('what cannot be refunded', () => {
  it('answers 404 for an unknown payment and for another business’s', async () => {
    const unknown = await refund(randomUUID());
    expect(unknown.status).toBe(404);
    expect(unknown.body.id).toBe('payment_request_not_found');
    const theirs = await pay(10_000, 'orange', payers.paidBack, other);
    const aimed = await refund(theirs);
    expect(aimed.status).toBe(404);
    expect(aimed.body.id).toBe('payment_request_not_found');
    expect((await paymentOf(theirs, other)).amountRefunded.amount).toBe(0);
  });

  it('answers 409 payment_request_not_refundable for a payment not paid', async () => {
    const created = await api(
      'POST',
      '/partner_api/payment_requests',
      paymentRequestBody(merchant.storeId, 'wave', 10_000),
    );
    const answer = await refund(created.body.id);
    expect(answer.status).toBe(409);
    expect(answer.body.id).toBe('payment_request_not_refundable');
  });

  it('sends a payment held in escrow to its escrow’s refund (409), and refunds it once released', async () => {
    const platform = await platformKey(dataDir, merchant.businessId);
    const headers = {
      'X-API-KEY-ID': platform.keyId,
      'X-API-KEY': platform.key,
      'content-type': 'application/json',
    };
    const created = await call('POST', '/partner_api/payment_requests', headers, {
      ...paymentRequestBody(merchant.storeId, 'wave', 20_000),
      escrow: { holdDays: 7 },
    });
    await call('POST', `/sandbox/payment_requests/${created.body.id}/approve`, headers, {
      payerPhone: payers.paidBack,
    });
    const held = await refund(created.body.id);
    expect(held.status).toBe(409);
    expect(held.body).toMatchObject({ id: 'payment_request_not_refundable' });
    expect(held.body.message).toContain(`/partner_api/escrows/${created.body.escrowId}/refund`);

    expect(
      (await call('POST', `/partner_api/escrows/${created.body.escrowId}/release`, headers)).status,
    ).toBe(200);
    const released = await refund(created.body.id, { amountCents: 5_000 });
    expect(released.status, JSON.stringify(released.body)).toBe(201);
  });

  it('answers 409 refund_exists_with_reference for a reference used before, and 422 on bad amounts', async () => {
    const paymentId = await pay(20_000, 'orange');
    const reference = `retour-${randomUUID()}`;
    expect((await refund(paymentId, { reference, amountCents: 1_000 })).status).toBe(201);
    const reused = await refund(paymentId, { reference, amountCents: 1_000 });
    expect(reused.status).toBe(409);
    expect(reused.body.id).toBe('refund_exists_with_reference');

    const tooSmall = await refund(paymentId, { amountCents: 99 });
    expect(tooSmall.status).toBe(422);
    expect(tooSmall.body.extras.errors[0].field).toBe('amountCents');
    const tooBig = await refund(paymentId, { amountCents: 20_000 });
    expect(tooBig.status).toBe(422);
    expect(tooBig.body.extras.errors[0]).toMatchObject({ field: 'amountCents', rule: 'max' });
    const noReference = await call('POST', '/partner_api/refunds', merchant.headers, {
      paymentRequestId: paymentId,
    });
    expect(noReference.status).toBe(422);
    expect(noReference.body.extras.errors[0].field).toBe('reference');
  });

  it('answers 404 refund_not_found for an unknown refund and for another business’s', async () => {
    expect((await api('GET', `/partner_api/refunds/${randomUUID()}`)).body.id).toBe('refund_not_found');
    const theirs = await refund(await pay(10_000, 'orange', payers.paidBack, other), {}, other);
    const aimed = await api('GET', `/partner_api/refunds/${theirs.body.id}`);
    expect(aimed.status).toBe(404);
    expect(aimed.body.id).toBe('refund_not_found');
  });
});

describe('GET /partner_api/refunds', () => {
  it('pages the business’s refunds newest first, with the transactions’ envelope', async () => {
    const shop = await newMerchant(dataDir, 'Boutique Liste');
    const paymentId = await pay(50_000, 'orange', payers.paidBack, shop);
    const made: string[] = [];
    for (let i = 0; i < 3; i++) made.push((await refund(paymentId, { amountCents: 1_000 }, shop)).body.id);
    const page1 = await call('GET', '/partner_api/refunds?limit=2', shop.headers);
    const page2 = await call('GET', '/partner_api/refunds?limit=2&page=2', shop.headers);
    expect(page1.body).toMatchObject({ total: 3, perPage: 2, currentPage: 1 });
    expect([...page1.body.data, ...page2.body.data].map((item: Body) => item.id)).toEqual(made.reverse());
    const byStore = await call('GET', `/partner_api/refunds?storeId=${shop.storeId}`, shop.headers);
    expect(byStore.body.total).toBe(3);
    const otherStore = await call('GET', `/partner_api/refunds?storeId=${merchant.storeId}`, shop.headers);
    expect(otherStore.status).toBe(404);
    expect(otherStore.body.id).toBe('store_not_found');
  });
});

describe('REFUND_COMPLETED', () => {
  it('reaches a subscription that lists it, with the refund’s line as a flat body, and no other', async () => {
    const paymentId = await pay(60_000, 'orange', payers.paidBack, subscribed);
    const created = await refund(paymentId, { amountCents: 25_000 }, subscribed);
    expect((await settled(created.body.id, subscribed)).status).toBe('success');
    const event = await receivedWebhook(
      receiver,
      (_body, webhook) => webhook.headers['svc-event'] === 'REFUND_COMPLETED',
    );
    expect(event).toMatchObject({
      status: 'success',
      transactionType: 'refund',
      amount: { amount: 25_000, currency: 'XOF' },
      counterpartIdentifier: payers.paidBack,
      paymentMethod: 'orange',
      transactionDetails: {
        id: paymentId,
        refundId: created.body.id,
        refundReference: created.body.reference,
      },
    });
    await receiver.waitFor(receiver.received.length, 1_000);

    // A receiver written for payments (the default events) gets the payment, never the refund.
    const mine = await pay(30_000, 'orange');
    const mineRefund = await refund(mine, { amountCents: 10_000 });
    expect((await settled(mineRefund.body.id)).status).toBe('success');
    // Time let pass on purpose: a REFUND_COMPLETED sent to this receiver would have come by then.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const events = defaultReceiver.received.map((webhook) => webhook.headers['svc-event']);
    expect(events).toContain('TRANSACTION_COMPLETED');
    expect(events).not.toContain('REFUND_COMPLETED');
    const bodies = defaultReceiver.received.map((webhook) => JSON.parse(webhook.body.toString()));
    expect(bodies.some((body) => body.transactionType === 'refund')).toBe(false);
  });
});
