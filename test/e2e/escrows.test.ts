import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { useLocalAws } from '#infra/local/local-config.ts';
import { listStoreWallets } from '#shared/data/wallet.ts';
import {
  apiClient,
  type Body,
  type Merchant,
  newMerchant,
  platformKey,
  setWebhook,
} from '#test/support/api-client.ts';
import { backgroundWorkMs } from '#test/support/dashboard.ts';
import { eventually } from '#test/support/eventually.ts';
import { admin } from '#test/support/local-host.ts';
import { redirectRequestBody } from '#test/support/payment-request-body.ts';
import { startWebhookReceiver, type WebhookReceiver } from '#test/support/webhook-receiver.ts';

const { config, dataDir } = inject('localHost');
const call = apiClient(config.baseUrl);

let merchant: Merchant;
let platform: Record<string, string>;
let annexe: string;
let annexeKey: Record<string, string>;
let receiver: WebhookReceiver;

const keyHeaders = (created: Record<string, unknown>) => ({
  'X-API-KEY-ID': created.keyId as string,
  'X-API-KEY': created.key as string,
  'content-type': 'application/json',
});

beforeAll(async () => {
  useLocalAws(config.endpoints, config.tableName);
  merchant = await newMerchant(dataDir, 'Marché');
  platform = keyHeaders(
    await admin(dataDir, 'create-key', '--business', merchant.businessId, '--kind', 'platform'),
  );
  ({ storeId: annexe } = (await admin(
    dataDir,
    'create-store',
    '--business',
    merchant.businessId,
    '--name',
    'Annexe Cocody',
  )) as { storeId: string });
  annexeKey = keyHeaders(await platformKey(dataDir, merchant.businessId, annexe));
  receiver = await startWebhookReceiver();
  await setWebhook(
    dataDir,
    merchant.businessId,
    receiver.url,
    'TRANSACTION_COMPLETED,ESCROW_HELD,ESCROW_RELEASED,ESCROW_REFUNDED',
  );
});

afterAll(async () => {
  await receiver?.close();
});

const escrowRequest = (escrow: unknown, storeId = () => merchant.storeId) =>
  redirectRequestBody(storeId(), { amountCents: 200_000, escrow, paymentMethod: 'orange' });

const balance = async (storeId = merchant.storeId) =>
  (await call('GET', `/partner_api/stores/${storeId}/balance`, platform)).body.amount as number;

const escrowWallet = async (storeId = merchant.storeId) =>
  (await listStoreWallets(merchant.businessId, storeId)).find((wallet) => wallet.kind === 'escrow')?.total;

async function heldPayment(
  escrow: unknown = { holdDays: 3 },
  headers = platform,
  storeId = merchant.storeId,
) {
  const created = await call(
    'POST',
    '/partner_api/payment_requests',
    headers,
    escrowRequest(escrow, () => storeId),
  );
  expect(created.status).toBe(200);
  const approved = await call('POST', `/sandbox/payment_requests/${created.body.id}/approve`, headers, {
    payerPhone: '+2250700000001',
  });
  expect(approved.body.status).toBe('success');
  return created.body as Body;
}

async function escrowOf(id: string, headers = platform): Promise<Body> {
  const { body } = await call('GET', '/partner_api/escrows', headers);
  return (body as Body[]).find((escrow) => escrow.id === id);
}

const webhooksOf = (escrowId: string) =>
  receiver.received
    .map((received) => ({ event: received.headers['svc-event'], body: JSON.parse(received.body.toString()) }))
    .filter((received) => received.body.escrowId === escrowId);

// A loaded CI machine (every e2e file sharing the one local host's stream) has taken more than
// 15 s to deliver an escrow's webhook; the service promises its first attempt within two minutes.
const waitForWebhook = (escrowId: string, event: string, timeoutMs = backgroundWorkMs) =>
  eventually(
    () => webhooksOf(escrowId).find((received) => received.event === event),
    (found) => found !== undefined,
    { timeoutMs, intervalMs: 200 },
  );

describe('a payment held in escrow', { timeout: 3 * backgroundWorkMs }, () => {
  it('is pending from creation, held on success: balance unchanged, escrow wallet up, ESCROW_HELD sent', async () => {
    const [before, escrowBefore] = [await balance(), await escrowWallet()];
    const created = await call(
      'POST',
      '/partner_api/payment_requests',
      platform,
      escrowRequest({ holdDays: 2 }),
    );
    expect(created.status).toBe(200);
    const escrowId = created.body.escrowId as string;
    expect(await escrowOf(escrowId)).toMatchObject({ status: 'pending', fees: { amount: 0 } });

    await call('POST', `/sandbox/payment_requests/${created.body.id}/approve`, platform, {
      payerPhone: '+2250700000001',
    });
    const held = await escrowOf(escrowId);
    expect(held).toMatchObject({
      status: 'held',
      storeId: merchant.storeId,
      amount: { amount: 200_000, currency: 'XOF' },
      onExpiry: 'release',
      paymentRequestId: created.body.id,
      paymentLinkId: null,
    });
    expect(held.fees.amount).toBeGreaterThan(0);
    expect(Date.parse(held.holdUntil) - Date.parse(held.createdAt)).toBeGreaterThan(2 * 86_400_000 - 60_000);
    expect(await balance()).toBe(before);
    expect(await escrowWallet()).toBe((escrowBefore ?? 0) + 200_000 - held.fees.amount);

    const webhook = await waitForWebhook(escrowId, 'ESCROW_HELD');
    expect(webhook?.body).toMatchObject({
      event: 'ESCROW_HELD',
      escrowId,
      status: 'held',
      storeId: merchant.storeId,
      amount: { amount: 200_000, currency: 'XOF' },
      paymentRequestId: created.body.id,
      holdUntil: held.holdUntil,
    });
    expect(receiver.received.some((r) => r.body.toString().includes(`"id":"${created.body.id}"`))).toBe(
      false,
    );
  });

  it('is cancelled when the payment fails, and nothing moves', async () => {
    const escrowBefore = await escrowWallet();
    const created = await call(
      'POST',
      '/partner_api/payment_requests',
      platform,
      escrowRequest({ holdDays: 1 }),
    );
    await call('POST', `/sandbox/payment_requests/${created.body.id}/decline`, platform);
    expect((await escrowOf(created.body.escrowId)).status).toBe('cancelled');
    expect(await escrowWallet()).toBe(escrowBefore);
    const released = await call('POST', `/partner_api/escrows/${created.body.escrowId}/release`, platform);
    expect(released.status).toBe(409);
    expect(released.body.id).toBe('escrow_not_held');
  });
});

describe('POST /partner_api/escrows/{id}/release', { timeout: 3 * backgroundWorkMs }, () => {
  it('moves the held sum to the operating wallet once, lists an escrow transaction and sends ESCROW_RELEASED', async () => {
    const payment = await heldPayment();
    const escrowId = payment.escrowId as string;
    const held = await escrowOf(escrowId);
    const heldSum = held.amount.amount - held.fees.amount;
    const [before, escrowBefore] = [await balance(), await escrowWallet()];

    const released = await call('POST', `/partner_api/escrows/${escrowId}/release`, platform);
    expect(released.status).toBe(200);
    expect(released.body).toMatchObject({ id: escrowId, status: 'released' });
    expect(await balance()).toBe(before + heldSum);
    expect(await escrowWallet()).toBe((escrowBefore ?? 0) - heldSum);

    const again = await call('POST', `/partner_api/escrows/${escrowId}/release`, platform);
    expect(again.status).toBe(409);
    expect(again.body.id).toBe('escrow_already_released');
    expect(await balance()).toBe(before + heldSum);

    const { body: list } = await call(
      'GET',
      `/partner_api/transactions?storeId=${merchant.storeId}`,
      platform,
    );
    const lines = (list.data as Body[]).filter((line) => line.escrowId === escrowId);
    expect(lines.map((line) => line.type).sort()).toEqual(['escrow', 'payment']);
    expect(lines.find((line) => line.type === 'escrow')).toMatchObject({
      amount: { amount: heldSum, currency: 'XOF' },
      status: 'success',
    });
    const webhook = await waitForWebhook(escrowId, 'ESCROW_RELEASED');
    expect(webhook?.body).toMatchObject({ event: 'ESCROW_RELEASED', escrowId, status: 'released' });
  });

  it('happens exactly once when released twice at the same moment', async () => {
    const payment = await heldPayment();
    const before = await balance();
    const results = await Promise.all([
      call('POST', `/partner_api/escrows/${payment.escrowId}/release`, platform),
      call('POST', `/partner_api/escrows/${payment.escrowId}/release`, platform),
    ]);
    expect(results.map((result) => result.status).sort()).toEqual([200, 409]);
    const held = await escrowOf(payment.escrowId);
    expect(await balance()).toBe(before + held.amount.amount - held.fees.amount);
  });

  it("answers 404 for another business's escrow, an unknown id, and outside a scoped key's store", async () => {
    const payment = await heldPayment();
    const stranger = await newMerchant(dataDir, 'Curieux');
    const strangerPlatform = keyHeaders(
      await admin(dataDir, 'create-key', '--business', stranger.businessId, '--kind', 'platform'),
    );
    for (const [id, headers] of [
      [payment.escrowId, strangerPlatform],
      [randomUUID(), platform],
      [payment.escrowId, annexeKey],
    ] as const) {
      const answer = await call('POST', `/partner_api/escrows/${id}/release`, headers);
      expect(answer.status).toBe(404);
      expect(answer.body.id).toBe('escrow_not_found');
    }
    expect((await escrowOf(payment.escrowId)).status).toBe('held');
  });
});

describe('who may use escrows', () => {
  it('refuses a merchant key with 403 forbidden_action, writing nothing', async () => {
    const reference = `order-${randomUUID()}`;
    const refused = await call('POST', '/partner_api/payment_requests', merchant.headers, {
      ...escrowRequest({ holdDays: 1 }),
      reference,
    });
    expect(refused.status).toBe(403);
    expect(refused.body.id).toBe('forbidden_action');
    const link = await call('POST', '/partner_api/payment_links', merchant.headers, {
      storeId: merchant.storeId,
      title: 'Commande marketplace',
      amountCents: 50_000,
      escrow: { holdDays: 1 },
    });
    expect(link.status).toBe(403);
    expect((await call('GET', '/partner_api/escrows', merchant.headers)).status).toBe(403);
    // The reference was not taken.
    const retried = await call('POST', '/partner_api/payment_requests', merchant.headers, {
      ...escrowRequest(undefined),
      reference,
    });
    expect(retried.status).toBe(200);
  });

  it('lets a store-scoped platform key see only its store, and filters by status and store', async () => {
    const mine = await heldPayment({ holdDays: 1 }, annexeKey, annexe);
    await heldPayment();
    const { body: scoped } = await call('GET', '/partner_api/escrows', annexeKey);
    expect(Array.isArray(scoped), JSON.stringify(scoped)).toBe(true);
    expect(scoped.length).toBeGreaterThan(0);
    expect((scoped as Body[]).every((escrow) => escrow.storeId === annexe)).toBe(true);
    expect((scoped as Body[]).map((escrow) => escrow.id)).toContain(mine.escrowId);
    const { body: all } = await call(
      'GET',
      `/partner_api/escrows?storeId=${merchant.storeId}&status=held`,
      platform,
    );
    expect((all as Body[]).every((e) => e.storeId === merchant.storeId && e.status === 'held')).toBe(true);
    const created = (all as Body[]).map((escrow) => escrow.createdAt);
    expect(created).toEqual([...created].sort().reverse());
    expect((await call('GET', `/partner_api/escrows?storeId=${merchant.storeId}`, annexeKey)).body).toEqual(
      [],
    );
  });

  it('refuses a hold shorter than the stage minimum or beyond 90 days, naming the field', async () => {
    for (const escrow of [
      { holdUntil: new Date(Date.now() - 1000).toISOString() },
      { holdUntil: new Date(Date.now() + 91 * 86_400_000).toISOString() },
      { holdDays: 0 },
      { holdDays: 1, holdUntil: new Date(Date.now() + 86_400_000).toISOString() },
      { holdDays: 1, onExpiry: 'keep' },
    ]) {
      const refused = await call('POST', '/partner_api/payment_requests', platform, escrowRequest(escrow));
      expect(refused.status, JSON.stringify(escrow)).toBe(422);
      expect(refused.body.extras.errors[0].field).toMatch(/^escrow\./);
    }
  });
});

describe('payment links with escrow', () => {
  it('holds each payment in its own escrow; a single-use link answers its escrowId', async () => {
    const created = await call('POST', '/partner_api/payment_links', platform, {
      storeId: merchant.storeId,
      title: 'Commande marketplace 42',
      amountCents: 50_000,
      escrow: { holdDays: 5, onExpiry: 'refund' },
    });
    expect(created.status).toBe(200);
    expect(
      (await call('GET', `/partner_api/payment_links/${created.body.id}`, platform)).body.escrowId,
    ).toBeNull();
    const paid = await call('POST', `/sandbox/payment_links/${created.body.id}/pay`, platform, {
      paymentMethod: 'orange',
      payerPhone: '+2250700000001',
    });
    expect(paid.body.status).toBe('success');
    const link = await call('GET', `/partner_api/payment_links/${created.body.id}`, platform);
    expect(link.body.escrowId).toBe(paid.body.escrowId);
    expect(await escrowOf(link.body.escrowId)).toMatchObject({
      status: 'held',
      onExpiry: 'refund',
      paymentLinkId: created.body.id,
      paymentRequestId: paid.body.id,
    });
  });
});

const waitForStatus = (escrowId: string, status: string, timeoutMs = 20_000): Promise<Body> =>
  eventually(
    () => escrowOf(escrowId),
    (escrow) => escrow?.status === status,
    { timeoutMs, intervalMs: 250 },
  );

describe('POST /partner_api/escrows/{id}/refund', { timeout: 3 * backgroundWorkMs }, () => {
  it('pays the whole payment back to the payer through the provider, once, and sends ESCROW_REFUNDED', async () => {
    const payment = await heldPayment();
    const escrowId = payment.escrowId as string;
    const held = await escrowOf(escrowId);
    const [before, escrowBefore] = [await balance(), await escrowWallet()];

    const refunding = await call('POST', `/partner_api/escrows/${escrowId}/refund`, platform);
    expect(refunding.status).toBe(200);
    expect(refunding.body.status).toBe('refunding');
    const twice = await call('POST', `/partner_api/escrows/${escrowId}/refund`, platform);
    expect(twice.status).toBe(409);
    expect(twice.body.id).toBe('escrow_already_refunded');
    const release = await call('POST', `/partner_api/escrows/${escrowId}/release`, platform);
    expect(release.body.id).toBe('escrow_already_refunded');

    expect((await waitForStatus(escrowId, 'refunded')).status).toBe('refunded');
    expect(await balance()).toBe(before);
    expect(await escrowWallet()).toBe((escrowBefore ?? 0) - (held.amount.amount - held.fees.amount));
    const webhook = await waitForWebhook(escrowId, 'ESCROW_REFUNDED');
    expect(webhook?.body).toMatchObject({
      event: 'ESCROW_REFUNDED',
      escrowId,
      status: 'refunded',
      amount: { amount: 200_000, currency: 'XOF' },
    });
    const { body: list } = await call(
      'GET',
      `/partner_api/transactions?storeId=${merchant.storeId}`,
      platform,
    );
    const refund = (list.data as Body[]).find(
      (line) => line.escrowId === escrowId && line.type === 'transfer',
    );
    expect(refund).toMatchObject({ amount: { amount: 200_000 }, counterpartIdentifier: '+2250700000001' });
  });
});

describe('the end of a hold (EventBridge Scheduler stand-in)', { timeout: 3 * backgroundWorkMs }, () => {
  const inSeconds = (seconds: number) => new Date(Date.now() + seconds * 1000).toISOString();

  it('releases a held escrow at its holdUntil when onExpiry is release', async () => {
    const payment = await heldPayment({ holdUntil: inSeconds(4) });
    const held = await escrowOf(payment.escrowId);
    expect(held.status).toBe('held');
    const before = await balance();
    const released = await waitForStatus(payment.escrowId, 'released', 30_000);
    expect(released.status).toBe('released');
    expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(held.holdUntil));
    expect(await balance()).toBe(before + held.amount.amount - held.fees.amount);
    expect((await waitForWebhook(payment.escrowId, 'ESCROW_RELEASED'))?.body.status).toBe('released');
  });

  it('refunds a held escrow at its holdUntil when onExpiry is refund', async () => {
    const payment = await heldPayment({ holdUntil: inSeconds(4), onExpiry: 'refund' });
    const before = await balance();
    expect((await waitForStatus(payment.escrowId, 'refunded', 40_000)).status).toBe('refunded');
    expect(await balance()).toBe(before);
    expect((await waitForWebhook(payment.escrowId, 'ESCROW_REFUNDED'))?.body.status).toBe('refunded');
  });

  it('makes exactly one transition when a release races the expiry', async () => {
    const payment = await heldPayment({ holdUntil: inSeconds(4) });
    const held = await escrowOf(payment.escrowId);
    const before = await balance();
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, Date.parse(held.holdUntil) - Date.now())));
    const answers = await Promise.all(
      [0, 150, 300, 600].map(async (delay) => {
        await new Promise((resolve) => setTimeout(resolve, delay));
        return call('POST', `/partner_api/escrows/${payment.escrowId}/release`, platform);
      }),
    );
    expect(answers.filter((answer) => answer.status === 200).length).toBeLessThanOrEqual(1);
    for (const answer of answers.filter((a) => a.status !== 200)) {
      expect(answer.status).toBe(409);
      expect(answer.body.id).toBe('escrow_already_released');
    }
    expect((await waitForStatus(payment.escrowId, 'released', 30_000)).status).toBe('released');
    expect(await balance()).toBe(before + held.amount.amount - held.fees.amount);
    const { body: list } = await call(
      'GET',
      `/partner_api/transactions?storeId=${merchant.storeId}`,
      platform,
    );
    expect(
      (list.data as Body[]).filter((line) => line.escrowId === payment.escrowId && line.type === 'escrow'),
    ).toHaveLength(1);
    await waitForWebhook(payment.escrowId, 'ESCROW_RELEASED');
    expect(webhooksOf(payment.escrowId).filter((r) => r.event === 'ESCROW_RELEASED')).toHaveLength(1);
  });
});
