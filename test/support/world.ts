import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { type LocalConfig, useLocalAws } from '#infra/local/local-config.ts';
import { apiClient, type Body } from '#test/support/api-client.ts';
import { backgroundWorkMs } from '#test/support/dashboard.ts';
import { newPhone } from '#test/support/link-requests.ts';
import { paidPayment, paymentRequestBody } from '#test/support/paid-payments.ts';

export { paymentRequestBody };

import { startWebhookReceiver, type WebhookReceiver } from '#test/support/webhook-receiver.ts';

export type Headers = Record<string, string>;

/**
 * Several businesses on the local host, each with what the routes act on, for suites that aim
 * every route at objects the caller may or may not see:
 * - `a`, the business whose objects are aimed at: two stores, a soundbox, payment requests and a
 *   link in its second store, a completed payment and the webhook delivery it caused, two payments
 *   held in escrow (one to release, one to refund), two refunds the sandbox leaves pending (one to
 *   complete, one to fail), a subscription its service provider made; a
 *   merchant key, a platform key for the whole business and one scoped to the first store;
 * - `b`, another business, with a merchant and a platform key;
 * - `provider`, a service provider linked to `a`; `stranger`, one that is not. `provider` also
 *   onboarded a merchant of its own, and has three pending link requests to owners of other
 *   businesses (one to read, one to approve, one to decline).
 */
export interface World {
  a: {
    businessId: string;
    firstStoreId: string;
    storeId: string;
    deviceId: string;
    merchant: Headers;
    platform: Headers;
    scopedToFirstStore: Headers;
    paymentRequestId: string;
    approvableRequestId: string;
    declinableRequestId: string;
    completedRequestId: string;
    cancellableRequestId: string;
    paymentLinkId: string;
    deliveryId: string;
    subscriptionId: string;
    contactId: string;
    /** The business's own accounts: one to withdraw to, one to remove. */
    payoutAccountId: string;
    removablePayoutAccountId: string;
    /** Payouts of the second store the sandbox provider leaves pending (a number ending in 04). */
    pendingTransferId: string;
    failableTransferId: string;
    messageId: string;
    /** Held escrows of the second store, each with the payment request that made it. */
    releasableEscrowId: string;
    refundableEscrowId: string;
    escrowRequestIds: string[];
    /** Refunds of the second store the sandbox leaves pending (a payer ending in 04), and their payments. */
    pendingRefundId: string;
    failableRefundId: string;
    refundedRequestIds: string[];
  };
  b: { businessId: string; storeId: string; merchant: Headers; platform: Headers };
  provider: {
    businessId: string;
    key: Headers;
    onboardedBusinessId: string;
    linkRequestId: string;
    approvableLinkRequestId: string;
    declinableLinkRequestId: string;
  };
  stranger: { businessId: string; key: Headers };
  receiver: WebhookReceiver;
}

const headersOf = (keyId: string, key: string): Headers => ({
  'X-API-KEY-ID': keyId,
  'X-API-KEY': key,
  'content-type': 'application/json',
});

/**
 * Provisions as the operator's tool does, with the same data functions, straight into the local
 * host's table: one process instead of one per object, which a loaded machine takes far better.
 */
async function provisioning(config: LocalConfig) {
  useLocalAws(config.endpoints, config.tableName);
  const { createBusiness } = await import('#shared/data/business.ts');
  const { createStore } = await import('#shared/data/store.ts');
  const { registerDevice } = await import('#shared/data/device.ts');
  const { createApiKey } = await import('#shared/data/api-key.ts');
  const { linkMerchant } = await import('#shared/data/service-provider-link.ts');
  const { creditSmsBalance } = await import('#shared/operations/messages.ts');
  const { createOwnedBusiness } = await import('#shared/operations/service-providers.ts');
  const owners = new Map<string, string>();
  return {
    business: async (name: string, isServiceProvider = false) => {
      const { business, owner } = await createBusiness({
        name: `${name} ${randomUUID().slice(0, 6)}`,
        apiAccessEnabled: true,
        isServiceProvider,
        verificationLevel: 2,
      });
      owners.set(business.id, owner.id);
      return business.id;
    },
    store: async (businessId: string, name: string) => (await createStore({ businessId, name })).id,
    device: (businessId: string, storeId: string, deviceId: string) =>
      registerDevice({ businessId, storeId, deviceId }),
    key: async (businessId: string, kind: 'merchant' | 'platform' = 'merchant', storeId?: string) => {
      const { apiKey, secret } = await createApiKey({
        businessId,
        kind,
        storeId,
        memberId: owners.get(businessId) as string,
        name: `${kind} key`,
      });
      return headersOf(apiKey.id, secret);
    },
    link: (providerId: string, merchantId: string) => linkMerchant(providerId, merchantId),
    smsCredit: (businessId: string, segments: number) => creditSmsBalance(businessId, segments),
    /** A user owning a business no provider is linked to: a link request's owner. */
    ownerPhone: async (name: string) => {
      const { user } = await createOwnedBusiness({
        owner: { phone: newPhone(), firstName: 'Awa', lastName: 'Koné' },
        business: { name: `${name} ${randomUUID().slice(0, 6)}` },
        storeName: name,
      });
      return user.phone;
    },
  };
}

export async function buildWorld(config: LocalConfig): Promise<World> {
  const call = apiClient(config.baseUrl);
  const make = await provisioning(config);
  const [aId, bId, providerId, strangerId] = await Promise.all([
    make.business('Maquis A'),
    make.business('Boutique B'),
    make.business('Provider', true),
    make.business('Stranger', true),
  ]);
  const [firstStoreId, storeId, bStoreId] = await Promise.all([
    make.store(aId, 'A Plateau'),
    make.store(aId, 'A Cocody'),
    make.store(bId, 'B Marcory'),
  ]);
  const deviceId = `Till-${randomUUID().slice(0, 8)}`;
  const [aMerchant, aPlatform, aScoped, bMerchant, bPlatform, providerKey, strangerKey] = await Promise.all([
    make.key(aId),
    make.key(aId, 'platform'),
    make.key(aId, 'platform', firstStoreId),
    make.key(bId),
    make.key(bId, 'platform'),
    make.key(providerId),
    make.key(strangerId),
  ]);
  await make.device(aId, storeId, deviceId);
  await make.link(providerId, aId);
  const [onboardedBusinessId, linkRequestId, approvableLinkRequestId, declinableLinkRequestId] =
    await Promise.all([
      onboardedBy(call, providerKey),
      make.ownerPhone('Pharmacie C').then((phone) => linkRequestTo(call, providerKey, phone)),
      make.ownerPhone('Pharmacie D').then((phone) => linkRequestTo(call, providerKey, phone)),
      make.ownerPhone('Pharmacie E').then((phone) => linkRequestTo(call, providerKey, phone)),
    ]);

  const receiver = await startWebhookReceiver();
  const subscribed = await call(
    'POST',
    '/partner_api/service_providers/business_webhook_subscriptions',
    providerKey,
    { merchantBusinessId: aId, url: receiver.url },
  );
  expect(subscribed.status, JSON.stringify(subscribed.body)).toBe(200);

  const createRequest = async () => {
    const created = await call(
      'POST',
      '/partner_api/payment_requests',
      aMerchant,
      paymentRequestBody(storeId),
    );
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    return created.body.id as string;
  };
  const [
    paymentRequestId,
    approvableRequestId,
    declinableRequestId,
    completedRequestId,
    cancellableRequestId,
  ] = await Promise.all([
    createRequest(),
    createRequest(),
    createRequest(),
    createRequest(),
    createRequest(),
  ]);
  const link = await call('POST', '/partner_api/payment_links', aMerchant, {
    storeId,
    title: 'Commande de la semaine',
    amountCents: 25_000,
  });
  expect(link.status).toBe(200);
  const approved = await call('POST', `/sandbox/payment_requests/${completedRequestId}/approve`, aMerchant, {
    payerPhone: '+2250700000001',
  });
  expect(approved.status).toBe(200);
  const deliveryId = await firstDelivery(call, aMerchant);
  const heldEscrow = async () => {
    const created = await call('POST', '/partner_api/payment_requests', aPlatform, {
      ...paymentRequestBody(storeId),
      escrow: { holdDays: 7 },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const held = await call('POST', `/sandbox/payment_requests/${created.body.id}/approve`, aPlatform, {
      payerPhone: '+2250700000001',
    });
    expect(held.status, JSON.stringify(held.body)).toBe(200);
    return { requestId: created.body.id as string, escrowId: created.body.escrowId as string };
  };
  // The subscription takes the default events, not ESCROW_HELD: no delivery can land mid-probe.
  const [releasable, refundable] = [await heldEscrow(), await heldEscrow()];

  const contact = await call('POST', '/partner_api/contacts', aMerchant, contactBody);
  expect(contact.status, JSON.stringify(contact.body)).toBe(200);
  const payout = async () => {
    const created = await call('POST', '/partner_api/transfers', aMerchant, {
      storeId,
      amountCents: 1_000,
      currency: 'XOF',
      name: 'Fournisseur en attente',
      paymentMethod: 'orange',
      identifier: { number: '+2250700000004' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    return created.body.id as string;
  };
  const pendingTransferId = await payout();
  const failableTransferId = await payout();
  const pendingRefund = async () => {
    const paid = await paidPayment(config, aMerchant, {
      storeId,
      amountCents: 20_000,
      paymentMethod: 'orange',
      payerPhone: '+2250700000004',
    });
    const refund = await call('POST', '/partner_api/refunds', aMerchant, {
      paymentRequestId: paid,
      amountCents: 5_000,
      reference: `retour-${randomUUID()}`,
    });
    expect(refund.status, JSON.stringify(refund.body)).toBe(201);
    return { requestId: paid, refundId: refund.body.id as string };
  };
  const [pendingRefund1, pendingRefund2] = [await pendingRefund(), await pendingRefund()];
  await make.smsCredit(aId, 5);
  const message = await call('POST', '/partner_api/messages', aMerchant, {
    channel: 'sms',
    to: '+2250700000001',
    body: 'Votre commande est prête.',
    reference: `sms-${randomUUID()}`,
  });
  expect(message.status, JSON.stringify(message.body)).toBe(200);

  const payoutAccount = async (number: string) => {
    const added = await call('POST', '/partner_api/payout_accounts', aPlatform, {
      type: 'mobile_money',
      holder: 'Compte de retrait',
      paymentMethod: 'orange',
      number,
    });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    return added.body.id as string;
  };
  const [payoutAccountId, removablePayoutAccountId] = [
    await payoutAccount('+2250700000061'),
    await payoutAccount('+2250700000062'),
  ];

  return {
    a: {
      businessId: aId,
      firstStoreId,
      storeId,
      deviceId,
      merchant: aMerchant,
      platform: aPlatform,
      scopedToFirstStore: aScoped,
      paymentRequestId,
      approvableRequestId,
      declinableRequestId,
      completedRequestId,
      cancellableRequestId,
      paymentLinkId: link.body.id,
      deliveryId,
      subscriptionId: subscribed.body.id,
      contactId: contact.body.id,
      payoutAccountId,
      removablePayoutAccountId,
      pendingTransferId,
      failableTransferId,
      messageId: message.body.id,
      releasableEscrowId: releasable.escrowId,
      refundableEscrowId: refundable.escrowId,
      escrowRequestIds: [releasable.requestId, refundable.requestId],
      pendingRefundId: pendingRefund1.refundId,
      failableRefundId: pendingRefund2.refundId,
      refundedRequestIds: [pendingRefund1.requestId, pendingRefund2.requestId],
    },
    b: { businessId: bId, storeId: bStoreId, merchant: bMerchant, platform: bPlatform },
    provider: {
      businessId: providerId,
      key: providerKey,
      onboardedBusinessId,
      linkRequestId,
      approvableLinkRequestId,
      declinableLinkRequestId,
    },
    stranger: { businessId: strangerId, key: strangerKey },
    receiver,
  };
}

/** A merchant the provider onboards, so it may make keys for it. */
async function onboardedBy(call: ReturnType<typeof apiClient>, providerKey: Headers): Promise<string> {
  const onboarded = await call('POST', '/partner_api/service_providers/business_onboarding', providerKey, {
    owner: { phone: newPhone(), firstName: 'Yao', lastName: 'Kouassi' },
    business: { name: `Maquis F ${randomUUID().slice(0, 6)}`, activityId: 'food.maquis' },
  });
  expect(onboarded.status, JSON.stringify(onboarded.body)).toBe(200);
  return onboarded.body.business.id as string;
}

/** The provider's request to link the one business the phone's owner has. */
async function linkRequestTo(
  call: ReturnType<typeof apiClient>,
  providerKey: Headers,
  phone: string,
): Promise<string> {
  const requested = await call('POST', '/partner_api/service_providers/business_link_requests', providerKey, {
    phone,
  });
  expect(requested.status, JSON.stringify(requested.body)).toBe(200);
  return requested.body[0].id as string;
}

/** Business `a`'s contact: posting it again answers the same contact. */
export const contactBody = {
  name: 'Kouassi Yao',
  paymentMethod: 'wave',
  identifier: { number: '+2250700000001' },
};

async function firstDelivery(call: ReturnType<typeof apiClient>, headers: Headers): Promise<string> {
  const deadline = Date.now() + backgroundWorkMs;
  for (;;) {
    const listed = await call('GET', '/partner_api/webhook_deliveries', headers);
    const id = (listed.body as Body)?.data?.[0]?.id;
    if (id) return id as string;
    if (Date.now() > deadline)
      throw new Error(`no webhook delivery ${backgroundWorkMs} ms after a completed payment`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Every id of business `a`'s second store and of the business itself: none may show to a caller who may not see them. */
export const idsOfSecondStore = (world: World) => [
  world.a.storeId,
  world.a.deviceId,
  world.a.paymentRequestId,
  world.a.approvableRequestId,
  world.a.declinableRequestId,
  world.a.completedRequestId,
  world.a.cancellableRequestId,
  world.a.paymentLinkId,
  world.a.deliveryId,
  world.a.pendingTransferId,
  world.a.failableTransferId,
  world.a.releasableEscrowId,
  world.a.refundableEscrowId,
  ...world.a.escrowRequestIds,
  world.a.pendingRefundId,
  world.a.failableRefundId,
  ...world.a.refundedRequestIds,
];

export const idsOfBusiness = (world: World) => [
  world.a.businessId,
  world.a.firstStoreId,
  world.a.subscriptionId,
  world.a.contactId,
  world.a.payoutAccountId,
  world.a.removablePayoutAccountId,
  world.a.messageId,
  ...idsOfSecondStore(world),
];

/**
 * What business `a` holds, read through its own keys: it must not change when someone who may
 * not see it aims a request at it.
 */
export async function stateOf(baseUrl: string, world: World) {
  const call = apiClient(baseUrl);
  const { merchant } = world.a;
  const read = async (path: string, headers = merchant) => {
    const answer = await call('GET', path, headers);
    return { status: answer.status, body: answer.body as Body };
  };
  const requests = await Promise.all(
    [
      world.a.paymentRequestId,
      world.a.approvableRequestId,
      world.a.declinableRequestId,
      world.a.completedRequestId,
      world.a.cancellableRequestId,
      ...world.a.refundedRequestIds,
    ].map(async (id) => {
      const { body } = await read(`/partner_api/payment_requests/${id}`);
      return `${body.status}:${body.amountRefunded?.amount}`;
    }),
  );
  const refunds = await read('/partner_api/refunds');
  const deliveries = await read('/partner_api/webhook_deliveries');
  return {
    balances: await Promise.all(
      [world.a.firstStoreId, world.a.storeId].map(
        async (id) => (await read(`/partner_api/stores/${id}/balance`)).body,
      ),
    ),
    requests,
    link: (await read(`/partner_api/payment_links/${world.a.paymentLinkId}`)).body.canReceivePayments,
    transactions: (await read(`/partner_api/transactions?storeId=${world.a.storeId}`)).body.total,
    refunds: (refunds.body.data as Body[]).map((refund) => `${refund.id}:${refund.status}`),
    deliveries: deliveries.body.total,
    subscriptions: (
      await read(
        `/partner_api/service_providers/business_webhook_subscriptions?merchantBusinessId=${world.a.businessId}`,
        world.provider.key,
      )
    ).body,
    stores: (await read('/partner_api/stores')).body,
    escrows: ((await read('/partner_api/escrows', world.a.platform)).body as Body[]).map(
      (escrow) => `${escrow.id}:${escrow.status}`,
    ),
    linkRequests: await Promise.all(
      [
        world.provider.linkRequestId,
        world.provider.approvableLinkRequestId,
        world.provider.declinableLinkRequestId,
      ].map(
        async (id) =>
          (await read(`/partner_api/service_providers/business_link_requests/${id}`, world.provider.key)).body
            .status,
      ),
    ),
    links: (await read('/partner_api/service_providers/business_links', world.provider.key)).body,
  };
}
