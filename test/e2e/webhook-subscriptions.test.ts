import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { apiClient, type Merchant, newMerchant, setWebhook } from '#test/support/api-client.ts';
import { admin } from '#test/support/local-host.ts';

const { config, dataDir } = inject('localHost');
const call = apiClient(config.baseUrl);
const path = '/partner_api/service_providers/business_webhook_subscriptions';
const url = 'https://hooks.example.com/svc';

let providerHeaders: Record<string, string>;
let providerId: string;

/** A service-provider business and a key of it, made as the operator does. */
async function newProvider(name: string) {
  const { businessId } = await admin(dataDir, 'create-business', '--name', name, '--service-provider');
  const { keyId, key } = await admin(dataDir, 'create-key', '--business', businessId as string);
  return {
    businessId: businessId as string,
    headers: {
      'X-API-KEY-ID': keyId as string,
      'X-API-KEY': key as string,
      'content-type': 'application/json',
    },
  };
}

async function linkedMerchant(): Promise<Merchant> {
  const merchant = await newMerchant(dataDir, 'Boutique');
  const { linkId } = await admin(
    dataDir,
    'link',
    '--provider',
    providerId,
    '--merchant',
    merchant.businessId,
  );
  expect(linkId).toMatch(/^[0-9a-f-]{36}$/);
  return merchant;
}

const list = (merchantId: string, headers = providerHeaders) =>
  call('GET', `${path}?merchantBusinessId=${merchantId}`, headers);
const create = (body: Record<string, unknown>, headers = providerHeaders) =>
  call('POST', path, headers, body);
const remove = (merchantId: string, subscriptionId: string, headers = providerHeaders) =>
  call('DELETE', `${path}/${subscriptionId}?merchantBusinessId=${merchantId}`, headers);

beforeAll(async () => {
  ({ businessId: providerId, headers: providerHeaders } = await newProvider(
    `Intégrateur ${randomUUID().slice(0, 6)}`,
  ));
});

describe('business webhook subscriptions, for a service provider', () => {
  it('are created, listed and deleted; the secret is shown only when created', async () => {
    const merchant = await linkedMerchant();
    expect(await list(merchant.businessId)).toEqual({ status: 200, body: [] });

    const created = await create({
      merchantBusinessId: merchant.businessId,
      url,
      name: 'Shop hooks',
      events: ['TRANSACTION_COMPLETED', 'ESCROW_HELD'],
    });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      url,
      name: 'Shop hooks',
      businessId: merchant.businessId,
      events: ['TRANSACTION_COMPLETED', 'ESCROW_HELD'],
      // Added beside the interface's fields: the layout of the deliveries' bodies.
      bodyFormat: 'flat',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      secret: expect.stringMatching(/^whsec_[0-9a-f]{64}$/),
    });

    const listed = await list(merchant.businessId);
    const { secret, ...shown } = created.body;
    expect(listed).toEqual({ status: 200, body: [shown] });
    expect(JSON.stringify(listed.body)).not.toContain(secret);

    expect(await remove(merchant.businessId, created.body.id)).toEqual({
      status: 200,
      body: { message: 'Webhook subscription deleted' },
    });
    expect(await list(merchant.businessId)).toEqual({ status: 200, body: [] });
  });

  it('are for TRANSACTION_COMPLETED when no events are given', async () => {
    const merchant = await linkedMerchant();
    const { status, body } = await create({ merchantBusinessId: merchant.businessId, url });
    expect(status).toBe(200);
    expect(body.events).toEqual(['TRANSACTION_COMPLETED']);
  });

  it('are one per merchant: a second create answers 409 webhook_subscription_exists', async () => {
    const merchant = await linkedMerchant();
    expect((await create({ merchantBusinessId: merchant.businessId, url })).status).toBe(200);
    const second = await create({
      merchantBusinessId: merchant.businessId,
      url: 'https://other.example.com/',
    });
    expect(second).toEqual({
      status: 409,
      body: {
        id: 'webhook_subscription_exists',
        message: 'This business already has a webhook subscription',
        extras: null,
      },
    });
    expect((await list(merchant.businessId)).body).toEqual([expect.objectContaining({ url })]);
  });

  it('answer an unknown subscription id with 404 and exactly {"message": "Webhook subscription not found"}', async () => {
    const merchant = await linkedMerchant();
    const response = await fetch(
      `${config.baseUrl}${path}/${randomUUID()}?merchantBusinessId=${merchant.businessId}`,
      { method: 'DELETE', headers: providerHeaders },
    );
    expect(response.status).toBe(404);
    expect(await response.text()).toBe('{"message":"Webhook subscription not found"}');
  });

  it('of a merchant not linked to the caller, or unknown, answer 404 business_not_found', async () => {
    const unlinked = await newMerchant(dataDir, 'Unlinked');
    for (const merchantId of [unlinked.businessId, randomUUID()]) {
      const notFound = {
        status: 404,
        body: { id: 'business_not_found', message: 'Business not found', extras: null },
      };
      expect(await list(merchantId)).toEqual(notFound);
      expect(await create({ merchantBusinessId: merchantId, url })).toEqual(notFound);
      expect(await remove(merchantId, randomUUID())).toEqual(notFound);
    }
  });

  it('are out of reach of another provider', async () => {
    const merchant = await linkedMerchant();
    const created = await create({ merchantBusinessId: merchant.businessId, url });
    const other = await newProvider(`Autre ${randomUUID().slice(0, 6)}`);
    expect((await list(merchant.businessId, other.headers)).status).toBe(404);
    expect((await remove(merchant.businessId, created.body.id, other.headers)).status).toBe(404);
    expect((await list(merchant.businessId)).body).toHaveLength(1);
  });

  it('refuse a key of a business that is not a service provider with 403 forbidden_action', async () => {
    const merchant = await linkedMerchant();
    const expected = {
      status: 403,
      body: { id: 'forbidden_action', message: 'This action is reserved to service providers', extras: null },
    };
    expect(await list(merchant.businessId, merchant.headers)).toEqual(expected);
    expect(await create({ merchantBusinessId: merchant.businessId, url }, merchant.headers)).toEqual(
      expected,
    );
    expect(await remove(merchant.businessId, randomUUID(), merchant.headers)).toEqual(expected);
  });

  it('answer 422 for unknown events, a refused URL, or a missing merchant', async () => {
    const merchant = await linkedMerchant();
    const events = await create({ merchantBusinessId: merchant.businessId, url, events: ['PAYMENT_DONE'] });
    expect(events.status).toBe(422);
    expect(events.body.extras.errors).toEqual([expect.objectContaining({ field: 'events.0', rule: 'in' })]);

    const internal = await create({
      merchantBusinessId: merchant.businessId,
      url: 'https://169.254.169.254/',
    });
    expect(internal.status).toBe(422);
    expect(internal.body.extras.errors).toEqual([
      expect.objectContaining({
        field: 'url',
        rule: 'url',
        message: expect.stringContaining('169.254.169.254'),
      }),
    ]);

    expect((await list('')).body.extras.errors).toEqual([
      expect.objectContaining({ field: 'merchantBusinessId' }),
    ]);
  });
});

describe('the admin command', () => {
  it('link refuses a second link with already_linked', async () => {
    const merchant = await linkedMerchant();
    const error = await admin(
      dataDir,
      'link',
      '--provider',
      providerId,
      '--merchant',
      merchant.businessId,
    ).catch((e: { code: number; stderr: string }) => e);
    expect(error).toMatchObject({ code: 1 });
    expect(JSON.parse((error as { stderr: string }).stderr)).toEqual({
      error: 'The service provider is already linked to this business',
    });
  });

  it('link refuses a business that is not a service provider', async () => {
    const merchant = await newMerchant(dataDir, 'Shop');
    const other = await newMerchant(dataDir, 'Shop');
    await expect(
      admin(dataDir, 'link', '--provider', merchant.businessId, '--merchant', other.businessId),
    ).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('is not a service provider') });
  });

  it('set-webhook replaces the subscription and prints its id and secret, shown nowhere else', async () => {
    const merchant = await linkedMerchant();
    await create({ merchantBusinessId: merchant.businessId, url });
    const { subscriptionId, secret } = await setWebhook(
      dataDir,
      merchant.businessId,
      'http://127.0.0.1:4000/hooks',
      'TRANSACTION_COMPLETED,ESCROW_RELEASED',
    );
    expect(secret).toMatch(/^whsec_[0-9a-f]{64}$/);
    const listed = await list(merchant.businessId);
    expect(listed.body).toEqual([
      expect.objectContaining({
        id: subscriptionId,
        url: 'http://127.0.0.1:4000/hooks',
        name: 'Operator',
        events: ['TRANSACTION_COMPLETED', 'ESCROW_RELEASED'],
      }),
    ]);
    expect(JSON.stringify(listed.body)).not.toContain(secret as string);
  });

  it('set-webhook against a stage refuses an internal address before touching anything', async () => {
    await expect(
      admin(
        dataDir,
        'set-webhook',
        '--stage',
        'dev',
        '--business',
        randomUUID(),
        '--url',
        'https://169.254.169.254/latest/meta-data/',
      ),
    ).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('link-local') });
  });
});
