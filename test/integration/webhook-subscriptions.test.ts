import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { documentClient, tableName } from '#shared/aws/dynamodb.ts';
import { createApiKey } from '#shared/data/api-key.ts';
import { createBusiness } from '#shared/data/business.ts';
import { linkMerchant } from '#shared/data/service-provider-link.ts';
import {
  getSubscription,
  type NewWebhookSubscription,
  saveSubscription,
  signingSecretOf,
  type WebhookSubscription,
} from '#shared/data/webhook-subscription.ts';
import { BusinessNotFound } from '#shared/errors/businesses.ts';
import { WebhookSubscriptionExists, WebhookSubscriptionNotFound } from '#shared/errors/webhooks.ts';
import { authenticate } from '#shared/http/authenticate.ts';
import {
  createMerchantSubscription,
  deleteMerchantSubscription,
  merchantSubscriptions,
} from '#shared/operations/webhook-subscriptions.ts';

const unknownId = '00000000-0000-4000-8000-000000000000';
const url = 'https://hooks.example.com/svc';

async function business(name: string, isServiceProvider = false) {
  const { business, owner } = await createBusiness({
    name,
    apiAccessEnabled: true,
    isServiceProvider,
    verificationLevel: 1,
  });
  return { business, owner };
}

/** A service provider's caller, as the wrapper gives it to the operation. */
async function provider(name = 'Intégrateur') {
  const { business: provider, owner } = await business(name, true);
  const { apiKey, secret } = await createApiKey({
    businessId: provider.id,
    kind: 'merchant',
    memberId: owner.id,
    name: 'k',
  });
  return authenticate({ 'x-api-key-id': apiKey.id, 'x-api-key': secret }, 'service_provider');
}

async function linkedMerchant(providerId: string, name = 'Boutique') {
  const { business: merchant } = await business(name);
  await linkMerchant(providerId, merchant.id);
  return merchant;
}

/** What the table keeps of a new subscription: everything but the secret in clear. */
const stored = ({ secret: _secret, ...subscription }: NewWebhookSubscription): WebhookSubscription =>
  subscription;

describe('webhook subscriptions managed by a service provider', () => {
  it('are created for a linked merchant, named after the provider, for TRANSACTION_COMPLETED by default', async () => {
    const caller = await provider('Intégrateur');
    const merchant = await linkedMerchant(caller.businessId);
    const created = await createMerchantSubscription(caller, { merchantBusinessId: merchant.id, url });
    expect(created).toMatchObject({
      businessId: merchant.id,
      url,
      name: 'Intégrateur',
      events: ['TRANSACTION_COMPLETED'],
      secret: expect.stringMatching(/^whsec_[0-9a-f]{64}$/),
    });
    expect(await getSubscription(merchant.id)).toEqual(stored(created));
    expect(await merchantSubscriptions(caller, merchant.id)).toEqual([stored(created)]);
  });

  it('keep the secret encrypted, bound to the business: another business cannot use the ciphertext', async () => {
    const caller = await provider();
    const merchant = await linkedMerchant(caller.businessId);
    const other = await linkedMerchant(caller.businessId);
    const created = await createMerchantSubscription(caller, { merchantBusinessId: merchant.id, url });
    const { Item } = await documentClient.send(
      new GetCommand({ TableName: tableName(), Key: { pk: `BIZ#${merchant.id}`, sk: 'WEBHOOK' } }),
    );
    expect(JSON.stringify(Item)).not.toContain(created.secret);
    expect(Item?.secretCiphertext).toEqual(expect.any(String));

    const subscription = (await getSubscription(merchant.id)) as WebhookSubscription;
    expect(await signingSecretOf(subscription)).toBe(created.secret);
    await expect(signingSecretOf({ ...subscription, businessId: other.id })).rejects.toMatchObject({
      name: 'InvalidCiphertextException',
    });
  });

  it('keep the events asked for, once each', async () => {
    const caller = await provider();
    const merchant = await linkedMerchant(caller.businessId);
    const created = await createMerchantSubscription(caller, {
      merchantBusinessId: merchant.id,
      url,
      name: 'Shop hooks',
      events: ['ESCROW_HELD', 'TRANSACTION_COMPLETED', 'ESCROW_HELD'],
    });
    expect(created).toMatchObject({ name: 'Shop hooks', events: ['ESCROW_HELD', 'TRANSACTION_COMPLETED'] });
  });

  it('are listed as an empty array for a linked merchant without one', async () => {
    const caller = await provider();
    const merchant = await linkedMerchant(caller.businessId);
    expect(await merchantSubscriptions(caller, merchant.id)).toEqual([]);
  });

  it('are one per merchant: a second is webhook_subscription_exists, and the first stays', async () => {
    const caller = await provider();
    const merchant = await linkedMerchant(caller.businessId);
    const first = await createMerchantSubscription(caller, { merchantBusinessId: merchant.id, url });
    await expect(
      createMerchantSubscription(caller, {
        merchantBusinessId: merchant.id,
        url: 'https://other.example.com',
      }),
    ).rejects.toBeInstanceOf(WebhookSubscriptionExists);
    expect(await merchantSubscriptions(caller, merchant.id)).toEqual([stored(first)]);
  });

  it('are one per merchant across providers too', async () => {
    const first = await provider('First');
    const second = await provider('Second');
    const merchant = await linkedMerchant(first.businessId);
    await linkMerchant(second.businessId, merchant.id);
    const created = await createMerchantSubscription(first, { merchantBusinessId: merchant.id, url });
    await expect(
      createMerchantSubscription(second, { merchantBusinessId: merchant.id, url }),
    ).rejects.toBeInstanceOf(WebhookSubscriptionExists);
    expect(await merchantSubscriptions(second, merchant.id)).toEqual([stored(created)]);
  });

  it('of a merchant not linked to the caller, or unknown, do not exist for it', async () => {
    const caller = await provider();
    const other = await provider('Other');
    const theirs = await linkedMerchant(other.businessId);
    await createMerchantSubscription(other, { merchantBusinessId: theirs.id, url });
    const subscription = await getSubscription(theirs.id);

    for (const merchantId of [theirs.id, unknownId, caller.businessId]) {
      await expect(merchantSubscriptions(caller, merchantId)).rejects.toBeInstanceOf(BusinessNotFound);
      await expect(
        createMerchantSubscription(caller, { merchantBusinessId: merchantId, url }),
      ).rejects.toBeInstanceOf(BusinessNotFound);
      await expect(
        deleteMerchantSubscription(caller, merchantId, subscription?.id ?? ''),
      ).rejects.toBeInstanceOf(BusinessNotFound);
    }
    expect(await getSubscription(theirs.id)).toEqual(subscription);
  });

  it('are deleted by id; an unknown id, or one of another merchant, is not found', async () => {
    const caller = await provider();
    const merchant = await linkedMerchant(caller.businessId);
    const neighbour = await linkedMerchant(caller.businessId);
    const mine = await createMerchantSubscription(caller, { merchantBusinessId: merchant.id, url });
    const theirs = await createMerchantSubscription(caller, { merchantBusinessId: neighbour.id, url });

    await expect(deleteMerchantSubscription(caller, merchant.id, unknownId)).rejects.toBeInstanceOf(
      WebhookSubscriptionNotFound,
    );
    await expect(deleteMerchantSubscription(caller, merchant.id, theirs.id)).rejects.toBeInstanceOf(
      WebhookSubscriptionNotFound,
    );
    expect(await deleteMerchantSubscription(caller, merchant.id, mine.id)).toEqual({
      message: 'Webhook subscription deleted',
    });
    expect(await merchantSubscriptions(caller, merchant.id)).toEqual([]);
    await expect(deleteMerchantSubscription(caller, merchant.id, mine.id)).rejects.toBeInstanceOf(
      WebhookSubscriptionNotFound,
    );
    expect(await merchantSubscriptions(caller, neighbour.id)).toEqual([stored(theirs)]);
  });

  it('may be created again once deleted, with a new id and a new secret', async () => {
    const caller = await provider();
    const merchant = await linkedMerchant(caller.businessId);
    const first = await createMerchantSubscription(caller, { merchantBusinessId: merchant.id, url });
    await deleteMerchantSubscription(caller, merchant.id, first.id);
    const second = await createMerchantSubscription(caller, { merchantBusinessId: merchant.id, url });
    expect(second.id).not.toBe(first.id);
    expect(second.secret).not.toBe(first.secret);
  });

  it('are replaced whole by the operator, whatever was there', async () => {
    const caller = await provider();
    const merchant = await linkedMerchant(caller.businessId);
    const created = await createMerchantSubscription(caller, { merchantBusinessId: merchant.id, url });
    const replaced = await saveSubscription(
      {
        businessId: merchant.id,
        url: 'https://new.example.com/svc',
        name: 'Operator',
        events: ['ESCROW_HELD'],
      },
      { replace: true },
    );
    expect(replaced.id).not.toBe(created.id);
    expect(replaced.secret).not.toBe(created.secret);
    expect(await merchantSubscriptions(caller, merchant.id)).toEqual([stored(replaced)]);
  });
});
