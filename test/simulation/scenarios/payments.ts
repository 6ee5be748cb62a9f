import { randomUUID } from 'node:crypto';
import { findEscrow } from '#shared/data/escrow.ts';
import { findPaymentRequest } from '#shared/data/payment-request.ts';
import type { ProviderCode } from '#shared/domain/payment-methods.ts';
import { cancelPaymentRequestFor, leaveHostedPage } from '#shared/operations/end-payment.ts';
import { expireEscrow, refundEscrow, releaseEscrow } from '#shared/operations/escrows.ts';
import { payThroughLink } from '#shared/operations/payment-links.ts';
import { createPaymentRequestFor, startCollection } from '#shared/operations/payment-requests.ts';
import { completePayment } from '#shared/settlement/collections.ts';
import { truthfully } from '#test/simulation/network.ts';
import { decidePawapayDeposit, pawapayDepositCallback, throughPawapay } from '#test/simulation/pawapay.ts';
import { type Collection, type Operation, remember, removeOnce, type World } from '#test/simulation/world.ts';

/**
 * Payments, from the merchant's request to the provider's callbacks: payers restarting with
 * another provider (the first may still succeed), paying through a link, requests that live a
 * few seconds and expire, merchants cancelling, payers leaving; providers deciding collections and
 * their callbacks coming late, reordered, twice, two at once, and for superseded collections.
 */

const redirect = (paymentMethod: ProviderCode) => ({
  type: 'redirect' as const,
  data: { paymentMethod, successUrl: 'https://shop.example/ok', errorUrl: 'https://shop.example/ko' },
});

const pickRequest = (world: World) =>
  world.requests.length > 0 ? world.random.pick(world.requests) : undefined;

/** A collection's callback, as the provider's verified callback hands it to the service. */
export async function deliverCallback(world: World, reference: string): Promise<void> {
  const collection = world.collections.get(reference);
  if (!collection?.outcome) return;
  if (throughPawapay(collection.provider)) {
    // Now and then someone else's copy claiming the opposite comes first: it must move nothing.
    if (world.random.chance(0.25)) {
      const forged = await pawapayDepositCallback(reference, true);
      if (forged.problem) world.problems.push(forged.problem);
    }
    // pawaPay's own, believed once its status check agrees.
    const { callback } = await pawapayDepositCallback(reference, false);
    if (callback) {
      await completePayment(callback);
      world.counts.callbacksDelivered++;
    }
    return;
  }
  await completePayment({
    callbackId: randomUUID(),
    provider: collection.provider,
    providerReference: collection.reference,
    paymentRequestId: collection.requestId,
    outcome: collection.outcome,
    payerPhone: world.payerPhone,
  });
  world.counts.callbacksDelivered++;
}

/** The provider's decision on a collection: three in four pay. */
export async function decideCollection(world: World, collection: Collection) {
  const outcome = world.random.chance(0.75)
    ? 'success'
    : world.random.pick(['declined', 'insufficient_funds'] as const);
  // pawaPay's record is the truth its status check answers: decided there first.
  if (throughPawapay(collection.provider) && !(await decidePawapayDeposit(collection.reference, outcome)))
    return;
  collection.outcome = outcome;
}

/** An amount of whole francs (XOF has no smaller unit; the API refuses any other), in cents. */
const francs = (world: World, min: number, max: number) => world.random.int(min, max) * 100;

export const paymentOperations: Operation[] = [
  {
    weight: 14,
    name: 'a payment request started',
    async run(world) {
      const provider = world.random.pick(world.providers);
      const amount = francs(world, 1, 5_000);
      const request = await createPaymentRequestFor(
        world.m.caller,
        {
          storeId: world.m.store.id,
          amountCents: amount,
          currency: 'XOF',
          reference: `sim-${randomUUID()}`,
          paymentDetails: redirect(provider),
        },
        world.baseUrl,
      );
      world.requests.push(request.id);
      const started = await startCollection(request, 'redirect', provider, world.payerPhone, world.baseUrl);
      remember(world, request.id, provider, amount, started.providerReference);
    },
  },
  {
    weight: 8,
    name: 'the payer restarts with another provider',
    async run(world) {
      const id = pickRequest(world);
      if (!id) return;
      const request = await findPaymentRequest(id, true);
      if (request?.status !== 'pending') return;
      const provider = world.random.pick(world.providers);
      const started = await startCollection(request, 'redirect', provider, world.payerPhone, world.baseUrl);
      remember(world, id, provider, request.amountCents, started.providerReference);
    },
  },
  {
    weight: 5,
    name: 'a link payment',
    async run(world) {
      const provider = world.random.pick(world.providers);
      const { request } = await payThroughLink(
        world.linkId,
        { paymentMethod: provider, payerPhone: world.payerPhone },
        world.baseUrl,
      );
      world.requests.push(request.id);
      remember(world, request.id, provider, request.amountCents, request.providerReference);
    },
  },
  {
    weight: 6,
    name: 'a payment request that lives a few seconds',
    async run(world) {
      const provider = world.random.pick(world.providers);
      const amount = francs(world, 1, 3_000);
      const request = await createPaymentRequestFor(
        world.m.caller,
        {
          storeId: world.m.store.id,
          amountCents: amount,
          currency: 'XOF',
          reference: `sim-short-${randomUUID()}`,
          expiresAt: new Date(Date.now() + world.random.int(1_000, 3_000)).toISOString(),
          paymentDetails: redirect(provider),
        },
        world.baseUrl,
      );
      world.requests.push(request.id);
      world.shortLives.set(request.id, Date.parse(request.expiresAt));
      // Half the payers get as far as the provider, whose answer may come after the end.
      if (!world.random.chance(0.5)) return;
      const started = await startCollection(request, 'redirect', provider, world.payerPhone, world.baseUrl);
      remember(world, request.id, provider, amount, started.providerReference);
    },
  },
  {
    weight: 3,
    name: 'the merchant cancels a payment request',
    async run(world) {
      const id = pickRequest(world);
      if (id) await cancelPaymentRequestFor(world.m.caller, id);
    },
  },
  {
    weight: 2,
    name: 'the payer leaves the page for the shop',
    async run(world) {
      const id = pickRequest(world);
      if (id) await leaveHostedPage(id);
    },
  },
  {
    weight: 20,
    name: 'a provider decides a collection',
    async run(world) {
      const open = [...world.collections.values()].filter((collection) => !collection.outcome);
      if (open.length === 0) return;
      const collection = world.random.pick(open);
      await decideCollection(world, collection);
      world.callbacks.push({ reference: collection.reference, deliveries: world.random.int(1, 3) });
    },
  },
  {
    weight: 25,
    name: 'a collection callback delivered',
    async run(world) {
      // Any waiting callback, in any order; sometimes two copies at once.
      if (world.callbacks.length === 0) return;
      const callback = world.random.pick(world.callbacks);
      const copies = world.random.chance(0.2) ? 2 : 1;
      const results = await Promise.allSettled(
        Array.from({ length: copies }, () => deliverCallback(world, callback.reference)),
      );
      if (results.some((result) => result.status === 'fulfilled') && --callback.deliveries <= 0)
        removeOnce(world.callbacks, callback);
      const failure = results.find((result) => result.status === 'rejected');
      if (failure) throw (failure as PromiseRejectedResult).reason;
    },
  },
  {
    weight: 5,
    name: 'an escrow payment started',
    async run(world) {
      // A marketplace's payment, held until released, refunded or its hold ends (minutes here).
      const provider = world.random.pick(world.providers);
      const amount = francs(world, 1, 3_000);
      const request = await createPaymentRequestFor(
        { ...world.m.caller, keyKind: 'platform' },
        {
          storeId: world.m.store.id,
          amountCents: amount,
          currency: 'XOF',
          reference: `sim-escrow-${randomUUID()}`,
          escrow: {
            holdUntil: new Date(Date.now() + world.random.int(2, 30) * 60_000).toISOString(),
            onExpiry: world.random.chance(0.5) ? 'release' : 'refund',
          },
          paymentDetails: redirect(provider),
        },
        world.baseUrl,
      );
      world.requests.push(request.id);
      if (request.escrow) world.escrows.push(request.escrow.id);
      const started = await startCollection(request, 'redirect', provider, world.payerPhone, world.baseUrl);
      remember(world, request.id, provider, amount, started.providerReference);
    },
  },
  {
    weight: 6,
    name: 'an escrow released, refunded or expired',
    async run(world) {
      const id = world.escrows.length > 0 ? world.random.pick(world.escrows) : undefined;
      if (!id) return;
      const escrow = await findEscrow(id, true);
      if (escrow?.status !== 'held') return;
      const action = world.random.next();
      try {
        if (action < 0.4) await releaseEscrow(escrow);
        else if (action < 0.7) await refundEscrow(escrow);
        else await expireEscrow(id, new Date(Date.parse(escrow.holdUntil) + 1_000));
      } finally {
        await watchEscrowRefund(world, id);
      }
    },
  },
];

/** A held escrow's refund is a payout too: the provider decides it like any other. */
export async function watchEscrowRefund(world: World, id: string): Promise<void> {
  const escrow = await truthfully(() => findEscrow(id, true));
  if (escrow?.refundTransferId) world.payouts.add(escrow.refundTransferId);
}
