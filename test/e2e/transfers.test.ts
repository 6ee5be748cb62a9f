import { createHmac, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Merchant } from '#test/support/api-client.ts';
import { receivedWebhook } from '#test/support/eventually.ts';
import { admin } from '#test/support/local-host.ts';
import { readPayoutReference } from '#test/support/provider-reference.ts';
import { fundedMerchant, phones, transferHelpers } from '#test/support/transfers.ts';
import { startWebhookReceiver, type WebhookReceiver } from '#test/support/webhook-receiver.ts';

/**
 * A transfer paid out through a provider: what it reserves, how the provider's answers settle it,
 * and what the balance allows. The beneficiary's forms and the request's validation are in
 * test/e2e/transfer-beneficiaries.test.ts.
 */
const { config, dataDir } = inject('localHost');

let merchant: Merchant;
let receiver: WebhookReceiver;

beforeAll(async () => {
  merchant = await fundedMerchant(dataDir, 'Grossiste');
  receiver = await startWebhookReceiver();
  await admin(dataDir, 'set-webhook', '--business', merchant.businessId, '--url', receiver.url);
});

afterAll(async () => {
  await receiver?.close();
});

const { call, api, balance, toNumber, settled, listed } = transferHelpers(config.baseUrl, () => merchant);

describe('POST /partner_api/transfers through a provider', () => {
  it('reserves amount + fee at once, then posts it on the provider’s success, reported once', async () => {
    const before = await balance();
    const reference = `payout-${randomUUID()}`;
    const { status, body } = await api(
      'POST',
      '/partner_api/transfers',
      toNumber(phones.success, { reference }),
    );
    expect(status).toBe(200);
    expect(body).toMatchObject({
      storeId: merchant.storeId,
      amount: { amount: 100_000, currency: 'XOF' },
      fees: { amount: 1_000, currency: 'XOF' },
      status: 'pending',
      paymentMethod: 'orange',
      // The identifier, as the original service answers it; the name apart.
      beneficiary: phones.success,
      beneficiaryName: 'Fournisseur Bamba',
      reference,
      transaction: { status: 'pending' },
    });
    expect(body.contactId).toMatch(/^[0-9a-f-]{36}$/);
    expect(await balance()).toBe(before - 101_000);

    const done = await settled(body.id);
    expect(done.status).toBe('success');
    expect(done.transaction).toEqual({ id: body.transaction.id, status: 'success' });
    expect(done).toMatchObject({ beneficiary: phones.success, beneficiaryName: 'Fournisseur Bamba' });
    expect(await balance()).toBe(before - 101_000);
    expect(await listed(body)).toMatchObject({
      id: body.transaction.id,
      type: 'transfer',
      status: 'success',
      paymentMethod: 'orange',
      counterpartLabel: 'Fournisseur Bamba',
      counterpartIdentifier: phones.success,
      reference,
    });

    const event = await receivedWebhook(receiver, (sent) => sent.transactionDetails?.id === body.id, {
      timeoutMs: 10_000,
    });
    expect(event).toMatchObject({
      id: body.transaction.id,
      status: 'success',
      transactionType: 'transfer',
      transactionDetails: { id: body.id, reference },
      amount: { amount: 100_000, currency: 'XOF' },
      counterpartLabel: 'Fournisseur Bamba',
      counterpartIdentifier: phones.success,
    });
  });

  it('holds the reservation while pending, then gives it back when the provider fails', async () => {
    const before = await balance();
    const created = (await api('POST', '/partner_api/transfers', toNumber(phones.noCallback))).body;
    expect(created.status).toBe('pending');
    expect(await balance()).toBe(before - 101_000);
    // Time let pass on purpose: no callback comes for this number, and nothing may settle it meanwhile.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect((await api('GET', `/partner_api/transfers/${created.id}`)).body.status).toBe('pending');
    expect(await balance()).toBe(before - 101_000);

    const failed = await api('POST', `/sandbox/transfers/${created.id}/fail`);
    expect(failed.status).toBe(200);
    expect(failed.body.status).toBe('error');
    expect(await balance()).toBe(before);
    expect((await listed(created)).status).toBe('error');
    // Settled once: the helper cannot settle it again.
    expect((await api('POST', `/sandbox/transfers/${created.id}/complete`)).status).toBe(409);
    expect(await balance()).toBe(before);
  });

  it('posts a pending payout the sandbox helper completes', async () => {
    const before = await balance();
    const created = (await api('POST', '/partner_api/transfers', toNumber(phones.noCallback))).body;
    const completed = await api('POST', `/sandbox/transfers/${created.id}/complete`);
    expect(completed.body.status).toBe('success');
    expect(await balance()).toBe(before - 101_000);
  });

  it.each([
    ['declined by the beneficiary’s account', phones.declined, 'declined'],
    ['failed for a limit', phones.limit, 'limit_exceeded'],
  ])('ends in error when %s, with the balance as before', async (_case, number, reason) => {
    const before = await balance();
    const created = (await api('POST', '/partner_api/transfers', toNumber(number))).body;
    expect(await balance()).toBe(before - 101_000);
    const done = await settled(created.id);
    expect(done).toMatchObject({ status: 'error', errorReason: reason });
    expect(await balance()).toBe(before);
  });

  it('is refused at once with 400 and nothing reserved when the provider refuses', async () => {
    const before = await balance();
    const reference = `refused-${randomUUID()}`;
    const { status, body } = await api(
      'POST',
      '/partner_api/transfers',
      toNumber(phones.refused, { reference }),
    );
    expect(status).toBe(400);
    expect(body.id).toBe('third_party_payment_provider_error');
    expect(await balance()).toBe(before);
    // The reference is free again for a retry to another number.
    const retried = await api('POST', '/partner_api/transfers', toNumber(phones.success, { reference }));
    expect(retried.status).toBe(200);
  });

  it('posts once when the callback comes twice, and a late callback changes nothing', async () => {
    const before = await balance();
    const created = (await api('POST', '/partner_api/transfers', toNumber(phones.twice))).body;
    expect((await settled(created.id)).status).toBe('success');
    // Time let pass on purpose: the sandbox sends the second callback after the first is answered,
    // and nothing outside shows it handled; the balance must not move for it.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await balance()).toBe(before - 101_000);

    const failed = (await api('POST', '/partner_api/transfers', toNumber(phones.noCallback))).body;
    await api('POST', `/sandbox/transfers/${failed.id}/fail`);
    const afterFail = await balance();
    const late = JSON.stringify({
      callbackId: randomUUID(),
      method: 'orange',
      providerReference: await readPayoutReference(config, failed.id),
      transferId: failed.id,
      outcome: 'success',
    });
    const sign = (body: string) =>
      createHmac('sha256', config.sandbox.providerSecret).update(body).digest('hex');
    const answer = await call(
      'POST',
      '/provider_callbacks/orange/payouts',
      {
        'content-type': 'application/json',
        'x-sandbox-signature': sign(late),
      },
      late,
    );
    expect(answer.status).toBe(200);
    expect(answer.body.result).toBe('already_completed');
    expect((await api('GET', `/partner_api/transfers/${failed.id}`)).body.status).toBe('error');
    expect(await balance()).toBe(afterFail);
    const forged = await call(
      'POST',
      '/provider_callbacks/orange/payouts',
      {
        'content-type': 'application/json',
        'x-sandbox-signature': 'f'.repeat(64),
      },
      late,
    );
    expect(forged.status).toBe(401);
  });

  it('refuses a transfer beyond the available balance with 422 insufficient_balance, writing nothing', async () => {
    const poor = await fundedMerchant(dataDir, 'Petit', 50_000);
    const reference = `poor-${randomUUID()}`;
    const { status, body } = await call('POST', '/partner_api/transfers', poor.headers, {
      ...toNumber(phones.success, { storeId: poor.storeId, reference }),
      amountCents: 49_600,
    });
    expect(status).toBe(422);
    expect(body.id).toBe('insufficient_balance');
    expect(await balance(poor.storeId, poor.headers)).toBe(50_000);
    expect((await call('GET', '/partner_api/transactions', poor.headers)).body.total).toBe(0);
    expect((await call('GET', '/partner_api/contacts', poor.headers)).body).toEqual([]);
    // The reference was not taken either.
    const fits = await call('POST', '/partner_api/transfers', poor.headers, {
      ...toNumber(phones.success, { storeId: poor.storeId, reference }),
      amountCents: 49_500,
    });
    expect(fits.status).toBe(200);
    // 495 F and its 1% fee, 4.95 F rounded to a whole franc (5 F): the whole balance.
    expect(await balance(poor.storeId, poor.headers)).toBe(50_000 - 49_500 - 500);
  });

  it('lets exactly one of two concurrent transfers through when together they exceed the balance', async () => {
    const tight = await fundedMerchant(dataDir, 'Juste', 150_000);
    const body = { ...toNumber(phones.noCallback, { storeId: tight.storeId }) };
    const results = await Promise.all([
      call('POST', '/partner_api/transfers', tight.headers, body),
      call('POST', '/partner_api/transfers', tight.headers, body),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 422]);
    expect(results.find((r) => r.status === 422)?.body.id).toBe('insufficient_balance');
    expect(await balance(tight.storeId, tight.headers)).toBe(150_000 - 101_000);
  });

  it('answers the first transfer again for a replayed Idempotency-Key, and refuses a reuse with another body', async () => {
    const before = await balance();
    const headers = { ...merchant.headers, 'Idempotency-Key': randomUUID() };
    const sent = toNumber(phones.noCallback);
    const first = await call('POST', '/partner_api/transfers', headers, sent);
    const again = await call('POST', '/partner_api/transfers', headers, sent);
    expect(again.body).toEqual(first.body);
    expect(await balance()).toBe(before - 101_000);
    const other = await call('POST', '/partner_api/transfers', headers, { ...sent, amountCents: 600 });
    expect(other.status).toBe(422);
    expect(other.body.id).toBe('idempotency_key_reused');
  });

  it('refuses a reused reference with 409 transfer_exists_with_reference', async () => {
    const reference = `dup-${randomUUID()}`;
    expect(
      (await api('POST', '/partner_api/transfers', toNumber(phones.noCallback, { reference }))).status,
    ).toBe(200);
    const again = await api('POST', '/partner_api/transfers', toNumber(phones.noCallback, { reference }));
    expect(again.status).toBe(409);
    expect(again.body.id).toBe('transfer_exists_with_reference');
  });
});
