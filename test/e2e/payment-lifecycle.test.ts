import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { DeviceProvisioning } from '#infra/admin-device.ts';
import { apiClient, type Body, type Merchant, newMerchant } from '#test/support/api-client.ts';
import { pastInstant } from '#test/support/eventually.ts';
import { admin } from '#test/support/local-host.ts';
import { testHostEnv } from '#test/support/local-host-global-setup.ts';
import { redirectRequestBody } from '#test/support/payment-request-body.ts';
import { readProviderReference } from '#test/support/provider-reference.ts';
import { connectDevice, type TestDevice } from '#test/support/soundbox-device.ts';
import { startWebhookReceiver, type WebhookReceiver } from '#test/support/webhook-receiver.ts';

// The host runs with PAYMENT_REQUEST_MIN_LIFETIME_SECONDS=2 and PAYMENT_COLLECTION_GRACE_SECONDS=2
// (test/support/local-host-global-setup.ts): requests expire, and graces end, in seconds.
const { config, dataDir } = inject('localHost');
const { baseUrl } = config;
const call = apiClient(baseUrl);
const payer = '+2250700000001';
const declining = '+2250700000002';
const refusedAtOnce = '+2250700000005';

let merchant: Merchant;
let receiver: WebhookReceiver;
let other: Merchant;
beforeAll(async () => {
  merchant = await newMerchant(dataDir, 'Boutique Cycle');
  other = await newMerchant(dataDir, 'Boutique Voisine');
  receiver = await startWebhookReceiver();
  await admin(dataDir, 'set-webhook', '--business', merchant.businessId, '--url', receiver.url);
});
afterAll(async () => {
  await receiver.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const requestBody = (overrides: Record<string, unknown> = {}) =>
  redirectRequestBody(merchant.storeId, {
    data: { successUrl: 'https://shop.example/paid', errorUrl: 'https://shop.example/failed?order=42' },
    ...overrides,
  });

async function create(overrides: Record<string, unknown> = {}): Promise<Body> {
  const created = await call(
    'POST',
    '/partner_api/payment_requests',
    merchant.headers,
    requestBody(overrides),
  );
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return created.body;
}

const inSeconds = (seconds: number) => new Date(Date.now() + seconds * 1000).toISOString();
/** The local host's PAYMENT_COLLECTION_GRACE_SECONDS (test/support/local-host-global-setup.ts), in ms. */
const graceMs = Number(testHostEnv.PAYMENT_COLLECTION_GRACE_SECONDS) * 1000;
const get = async (id: string, headers = merchant.headers) =>
  (await call('GET', `/partner_api/payment_requests/${id}`, headers)).body;

/** The payer submits the hosted page's form, as a browser without script does. */
async function payOnPage(id: string, paymentMethod: string, payerPhone: string, lang = 'fr') {
  return fetch(`${baseUrl}/payment/${id}?lang=${lang}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ paymentMethod, payerPhone }).toString(),
    redirect: 'manual',
  });
}

/** The payer answers on the sandbox provider's page; answers where the provider sends them back. */
async function answerAtProvider(checkoutUrl: string, action: 'approve' | 'decline', payerPhone: string) {
  const answered = await fetch(checkoutUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ action, payerPhone }).toString(),
    redirect: 'manual',
  });
  expect(answered.status).toBe(303);
  return answered.headers.get('location') as string;
}

/** Where a page sends the payer (a 303), without following it. */
async function redirectOf(url: string, init: RequestInit = {}) {
  const response = await fetch(url, { ...init, redirect: 'manual' });
  expect(response.status, await response.clone().text()).toBe(303);
  return response.headers.get('location') as string;
}

// 45 s: a loaded full run has taken more than 15 s to deliver a webhook through the one local
// host's stream (the service promises its first attempt within two minutes).
async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 45_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`not reached in ${timeoutMs} ms: ${JSON.stringify(value)}`);
    await sleep(200);
  }
}

/** The TRANSACTION_COMPLETED webhooks the merchant's receiver got for a request. */
const webhooksOf = (id: string) =>
  receiver.received
    .map((webhook) => JSON.parse(webhook.body.toString('utf8')) as Body)
    .filter((body) => body.transactionDetails?.id === id);

describe('a payment request that expires', () => {
  it('says expired everywhere from its expiresAt, refuses a new payment, sends its webhook and refunds a late success', async () => {
    const created = await create({ expiresAt: inSeconds(3) });
    expect(Date.parse(created.expiresAt)).toBeGreaterThan(Date.now());
    // The payer goes to the provider, and stops there.
    const started = await payOnPage(created.id, 'wave', payer);
    expect(started.status).toBe(303);
    const checkoutUrl = started.headers.get('location') as string;
    const providerReference = await readProviderReference(config, created.id);

    // At expiresAt the collection under way has its grace (2 s here): still pending.
    await pastInstant(created.expiresAt, 200);
    expect((await get(created.id)).status).toBe('pending');
    // Past the grace: expired in every answer, whether or not the expiry has been written yet.
    await pastInstant(Date.parse(created.expiresAt) + graceMs, 200);
    expect(await get(created.id)).toMatchObject({
      status: 'error',
      errorReason: 'expired',
      transaction: { status: 'error', fees: { amount: 0, currency: 'XOF' } },
      expiresAt: created.expiresAt,
    });
    const page = await (await fetch(`${baseUrl}/payment/${created.id}?lang=fr`)).text();
    expect(page).toContain('Demande de paiement expirée');
    expect(page).not.toContain('type="submit"');
    expect(await (await fetch(`${baseUrl}/payment/${created.id}?lang=en`)).text()).toContain(
      'The time to pay this request has run out.',
    );
    // A new payment is refused: the form goes back to the page that says it ended.
    const refused = await payOnPage(created.id, 'orange', payer);
    expect(refused.status).toBe(303);
    expect(refused.headers.get('location')).toBe(`${baseUrl}/payment/${created.id}?lang=fr`);
    const approve = await call('POST', `/sandbox/payment_requests/${created.id}/approve`, merchant.headers, {
      payerPhone: payer,
    });
    expect(approve.status).toBe(409);

    // Its TRANSACTION_COMPLETED, status error, from the background expiry.
    const [webhook] = await eventually(
      async () => webhooksOf(created.id),
      (found) => found.length > 0,
    );
    expect(webhook).toMatchObject({ status: 'error', transactionDetails: { reference: created.reference } });
    expect(webhook.id).toBe((await get(created.id)).transaction.id);
    const list = await call('GET', `/partner_api/transactions?storeId=${merchant.storeId}`, merchant.headers);
    expect(list.body.data).toContainEqual(
      expect.objectContaining({ paymentRequestId: created.id, status: 'error', type: 'payment' }),
    );

    // The payer approves the old collection after all: the money is refunded, never credited.
    expect(await answerAtProvider(checkoutUrl, 'approve', payer)).toContain(`/payment/${created.id}/return`);
    expect((await get(created.id)).status).toBe('error');
    const refund = await eventually(
      () =>
        admin<{ ended: { paymentRequestId: string; status: string; amountCents: number }[] }>(
          dataDir,
          'orphan-collections',
        ),
      (report) => report.ended.some((orphan) => orphan.paymentRequestId === created.id),
      30_000,
    );
    expect(refund.ended.find((orphan) => orphan.paymentRequestId === created.id)).toMatchObject({
      status: 'refunded',
      amountCents: 150_000,
    });
    const balance = await call('GET', `/partner_api/stores/${merchant.storeId}/balance`, merchant.headers);
    expect(balance.body.amount).toBe(0);
    expect(providerReference).toMatch(/^sbx_/);
    expect(webhooksOf(created.id)).toHaveLength(1);
  });

  it('takes its QR off the soundbox', async () => {
    const provisioning = await admin<DeviceProvisioning>(
      dataDir,
      'create-device',
      '--store',
      merchant.storeId,
      '--device-id',
      `Till-${randomUUID().slice(0, 8)}`,
    );
    const device: TestDevice = await connectDevice(provisioning);
    try {
      await device.client.subscribeAsync(provisioning.topics.display, { qos: 1 });
      const created = await create({
        expiresAt: inSeconds(3),
        paymentDetails: {
          type: 'soundbox',
          data: { paymentMethod: 'wave', deviceId: provisioning.deviceId },
        },
      });
      const shown = await device.next(provisioning.topics.display, (message) => message.payload.length > 0);
      // The device may hide it by itself at the request's expiry.
      expect(JSON.parse(shown.payload.toString()).expiresAt).toBe(created.expiresAt);
      // The QR is a collection under way: it ends with the grace, and the display is cleared.
      const cleared = await device.next(
        provisioning.topics.display,
        (message) => message.payload.length === 0,
        15_000,
      );
      expect(cleared.at).toBeGreaterThanOrEqual(Date.parse(created.expiresAt));
      expect(await get(created.id)).toMatchObject({ status: 'error', errorReason: 'expired' });
    } finally {
      await device.close();
    }
  });

  it('is refused outside its bounds, naming expiresAt', async () => {
    for (const expiresAt of [inSeconds(1), inSeconds(8 * 86_400), 'demain']) {
      const refused = await call(
        'POST',
        '/partner_api/payment_requests',
        merchant.headers,
        requestBody({ expiresAt }),
      );
      expect(refused.status).toBe(422);
      expect(refused.body.extras.errors).toContainEqual(expect.objectContaining({ field: 'expiresAt' }));
    }
  });
});

describe('cancelling a payment request', () => {
  it('ends it cancelled, with its webhook, and answers the same again', async () => {
    const created = await create();
    const cancelled = await call(
      'POST',
      `/partner_api/payment_requests/${created.id}/cancel`,
      merchant.headers,
    );
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ id: created.id, status: 'error', errorReason: 'cancelled' });
    const again = await call('POST', `/partner_api/payment_requests/${created.id}/cancel`, merchant.headers);
    expect(again).toMatchObject({ status: 200, body: cancelled.body });
    const page = await (await fetch(`${baseUrl}/payment/${created.id}?lang=en`)).text();
    expect(page).toContain('Payment cancelled');
    const [webhook] = await eventually(
      async () => webhooksOf(created.id),
      (found) => found.length > 0,
    );
    expect(webhook).toMatchObject({ status: 'error', transactionType: 'payment' });
  });

  it('is refused (409) once paid or expired, and not found for another business', async () => {
    const paid = await create();
    const approved = await call('POST', `/sandbox/payment_requests/${paid.id}/approve`, merchant.headers, {
      payerPhone: payer,
    });
    expect(approved.body.status).toBe('success');
    const refused = await call('POST', `/partner_api/payment_requests/${paid.id}/cancel`, merchant.headers);
    expect(refused).toMatchObject({ status: 409, body: { id: 'payment_request_not_cancellable' } });

    const expiring = await create({ expiresAt: inSeconds(3) });
    await pastInstant(expiring.expiresAt);
    const late = await call('POST', `/partner_api/payment_requests/${expiring.id}/cancel`, merchant.headers);
    expect(late).toMatchObject({ status: 409, body: { id: 'payment_request_not_cancellable' } });
    expect((await get(expiring.id)).errorReason).toBe('expired');

    const open = await create();
    const stranger = await call('POST', `/partner_api/payment_requests/${open.id}/cancel`, other.headers);
    expect(stranger).toMatchObject({ status: 404, body: { id: 'payment_request_not_found' } });
    expect((await get(open.id)).status).toBe('pending');
  });

  it('refunds a success that comes after the cancel', async () => {
    const created = await create();
    const started = await payOnPage(created.id, 'orange', payer);
    const checkoutUrl = started.headers.get('location') as string;
    await call('POST', `/partner_api/payment_requests/${created.id}/cancel`, merchant.headers);
    await answerAtProvider(checkoutUrl, 'approve', payer);
    expect((await get(created.id)).errorReason).toBe('cancelled');
    await eventually(
      () => admin<{ open: Body[]; ended: Body[] }>(dataDir, 'orphan-collections'),
      (report) => [...report.open, ...report.ended].some((orphan) => orphan.paymentRequestId === created.id),
    );
  });
});

describe('a payer on the hosted page', () => {
  it('declined once, pays on the second try on the same request', async () => {
    const created = await create();
    const first = await payOnPage(created.id, 'wave', declining);
    expect(first.status).toBe(303);
    const returnUrl = await answerAtProvider(first.headers.get('location') as string, 'decline', declining);
    // Back from the provider: to the form, which says why, and the request is still open.
    expect(await redirectOf(returnUrl)).toBe(`${baseUrl}/payment/${created.id}`);
    const form = await (await fetch(`${baseUrl}/payment/${created.id}?lang=fr`)).text();
    expect(form).toContain('Vous avez refusé le paiement sur votre téléphone.');
    expect(form).toContain('Essayez un autre opérateur ou un autre numéro.');
    expect(form).toContain('type="submit"');
    expect(await get(created.id)).toMatchObject({ status: 'pending', errorReason: null });

    // Refused at once by the provider: the form again, with the refusal, and still open.
    const refused = await payOnPage(created.id, 'mtn', refusedAtOnce, 'en');
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('MTN MoMo refused this payment.');
    expect((await get(created.id)).status).toBe('pending');

    const second = await payOnPage(created.id, 'orange', payer);
    expect(second.status).toBe(303);
    const back = await answerAtProvider(second.headers.get('location') as string, 'approve', payer);
    expect(await redirectOf(back)).toBe('https://shop.example/paid');
    expect(await get(created.id)).toMatchObject({
      status: 'success',
      transaction: { status: 'success', counterpartIdentifier: payer },
    });
    const [webhook] = await eventually(
      async () => webhooksOf(created.id),
      (found) => found.length > 0,
    );
    expect(webhook).toMatchObject({ status: 'success', paymentMethod: 'orange' });
    // Paid once: one webhook, the store credited once (time let pass on purpose: a second would
    // have come by then).
    await sleep(500);
    expect(webhooksOf(created.id)).toHaveLength(1);
  });

  it('leaves through "back to the shop": abandoned, then the errorUrl', async () => {
    const created = await create();
    const page = await (await fetch(`${baseUrl}/payment/${created.id}`)).text();
    expect(page).toContain(`action="${baseUrl}/payment/${created.id}/abandon"`);
    const left = await redirectOf(`${baseUrl}/payment/${created.id}/abandon`, { method: 'POST' });
    expect(left).toBe('https://shop.example/failed?order=42');
    expect(await get(created.id)).toMatchObject({ status: 'error', errorReason: 'abandoned' });
    // Leaving again, or from the page of a request that ended, goes the same way.
    expect(await redirectOf(`${baseUrl}/payment/${created.id}/abandon`, { method: 'POST' })).toBe(left);
    const [webhook] = await eventually(
      async () => webhooksOf(created.id),
      (found) => found.length > 0,
    );
    expect(webhook.status).toBe('error');
  });

  it('through a payment link, declined once, pays on the second try on the same request', async () => {
    const link = await call('POST', '/partner_api/payment_links', merchant.headers, {
      storeId: merchant.storeId,
      title: 'Deux pagnes wax, taille unique',
      amountCents: 25_000,
    });
    expect(link.status).toBe(200);
    const linkUrl = `${baseUrl}/pl/${link.body.id}`;
    const post = (url: string, payerPhone: string) =>
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ paymentMethod: 'wave', payerPhone }).toString(),
        redirect: 'manual',
      });
    const first = await post(linkUrl, declining);
    expect(first.status).toBe(303);
    const returnUrl = await answerAtProvider(first.headers.get('location') as string, 'decline', declining);
    // Back to the link's page for that payment: the form again, posting to the same payment.
    const back = await redirectOf(returnUrl);
    const paymentId = new URL(back).searchParams.get('payment') as string;
    const page = await (await fetch(`${back}&lang=en`)).text();
    expect(page).toContain('You declined the payment on your phone.');
    expect(page).toContain(`action="${linkUrl}?payment=${paymentId}&amp;lang=en"`);
    expect(await get(paymentId)).toMatchObject({ status: 'pending', paymentLinkId: link.body.id });

    const second = await post(`${linkUrl}?payment=${paymentId}`, payer);
    expect(second.status).toBe(303);
    await answerAtProvider(second.headers.get('location') as string, 'approve', payer);
    expect(await get(paymentId)).toMatchObject({ status: 'success', paymentLinkId: link.body.id });
    const after = await call('GET', `/partner_api/payment_links/${link.body.id}`, merchant.headers);
    expect(after.body.canReceivePayments).toBe(false);
  });

  it('keeps one attempt in direct mode, and the sandbox’s decline still ends a request', async () => {
    const direct = await create({
      paymentDetails: {
        type: 'redirect',
        data: {
          paymentMethod: 'orange',
          successUrl: 'https://shop.example/paid',
          errorUrl: 'https://shop.example/failed',
          forceProviderDirect: true,
          payerPhone: declining,
        },
      },
    });
    expect(
      await eventually(
        () => get(direct.id),
        (request) => request.status !== 'pending',
      ),
    ).toMatchObject({ status: 'error', errorReason: 'declined' });

    const declined = await call(
      'POST',
      `/sandbox/payment_requests/${(await create()).id}/decline`,
      merchant.headers,
    );
    expect(declined.body).toMatchObject({ status: 'error', errorReason: 'declined' });
  });
});
