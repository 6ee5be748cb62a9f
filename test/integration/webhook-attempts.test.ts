import { randomUUID } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { documentClient, tableName } from '#shared/aws/dynamodb.ts';
import { queues } from '#shared/catalogue/queues.ts';
import {
  createDelivery,
  deliveryIdFor,
  deliveryKey,
  getDelivery,
  resendIdAt,
  type WebhookDelivery,
} from '#shared/data/webhook-delivery.ts';
import { saveSubscription } from '#shared/data/webhook-subscription.ts';
import type { ServiceEvent } from '#shared/events/service-event.ts';
import { attemptDelivery, claimSeconds, maxAttempts } from '#shared/operations/webhook-send.ts';
import { measureUnits } from '#test/bench/bench-dynamodb.ts';
import { merchant } from '#test/support/fixtures.ts';
import {
  type ReceiverBehaviour,
  startWebhookReceiver,
  type WebhookReceiver,
} from '#test/support/webhook-receiver.ts';

/**
 * Webhook attempts are counted in the delivery's record, not from the queue's receives: what the
 * sender does with a message depends on the record, whatever its receive count says. Each attempt
 * is claimed before its POST, so one sender at a time attempts a delivery, however many copies of
 * its message there are.
 */
const receivers: WebhookReceiver[] = [];

beforeAll(() => {
  // The receivers of these tests listen on the loopback.
  process.env.WEBHOOKS_ALLOW_LOOPBACK = 'true';
  process.env.WEBHOOK_TIMEOUT_MS = '2000';
});

afterEach(() => {
  delete process.env.WEBHOOK_RETRY_BASE_SECONDS;
});

afterAll(async () => {
  await Promise.all(receivers.map((receiver) => receiver.close()));
});

/** A merchant subscribed to a receiver of its own. */
async function subscribed(behaviour: ReceiverBehaviour) {
  const receiver = await startWebhookReceiver(behaviour, false);
  receivers.push(receiver);
  const m = await merchant();
  const subscription = await saveSubscription(
    { businessId: m.business.id, url: receiver.url, name: 'Shop', events: [] },
    { replace: true },
  );
  return { receiver, businessId: m.business.id, subscriptionId: subscription.id };
}

/** A payment's TRANSACTION_COMPLETED body, as large as a real one. */
const paymentBody = () =>
  JSON.stringify({
    id: randomUUID(),
    amount: { amount: 150_000, currency: 'XOF' },
    fees: { amount: 1_500, currency: 'XOF' },
    status: 'success',
    counterpartLabel: 'Awa Traoré',
    counterpartIdentifier: '+2250700000001',
    paymentMethod: 'wave',
    transactionType: 'payment',
    businessName: 'Boutique Awa',
    storeName: 'Boutique Awa Plateau',
    storeId: randomUUID(),
    description: 'Payment order-2026-11-25-0042',
    executedAt: '2026-11-25 19:58:17',
    transactionDetails: { id: randomUUID(), reference: `order-${randomUUID()}`, paymentLinkId: null },
  });

type Subscribed = Awaited<ReturnType<typeof subscribed>>;

/** An event's first delivery to the subscription, as the stream's consumer queues it: the sender makes it. */
function firstDelivery(to: Subscribed) {
  const transactionId = randomUUID();
  const event: ServiceEvent = {
    id: `TRANSACTION_COMPLETED:${transactionId}`,
    name: 'TRANSACTION_COMPLETED',
    businessId: to.businessId,
    createdAt: new Date().toISOString(),
    body: JSON.parse(paymentBody()) as Record<string, unknown>,
  };
  const deliveryId = deliveryIdFor(event, to.subscriptionId);
  const message = { businessId: to.businessId, deliveryId, event, subscriptionId: to.subscriptionId };
  const stored = async () => getDelivery(to.businessId, deliveryId, true);
  return { message, stored };
}

/** One pending delivery to the subscription, made before its message (a re-send's). */
async function makeDelivery(to: Subscribed) {
  const now = new Date().toISOString();
  const { delivery } = await createDelivery({
    id: resendIdAt(now),
    businessId: to.businessId,
    subscriptionId: to.subscriptionId,
    eventId: `TRANSACTION_COMPLETED:${randomUUID()}`,
    eventName: 'TRANSACTION_COMPLETED',
    url: to.receiver.url,
    body: paymentBody(),
    status: 'pending',
    attempts: [],
    createdAt: now,
    updatedAt: now,
  });
  const message = { businessId: to.businessId, deliveryId: delivery.id };
  const stored = async () => (await getDelivery(to.businessId, delivery.id, true)) as WebhookDelivery;
  return { message, stored };
}

async function pendingDelivery(behaviour: ReceiverBehaviour) {
  const to = await subscribed(behaviour);
  return { receiver: to.receiver, ...(await makeDelivery(to)) };
}

/** What a sender that stopped mid-attempt leaves: the attempt claimed until `until`. */
async function claimedUntil(message: { businessId: string; deliveryId: string }, until: Date) {
  await documentClient.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: deliveryKey(message.businessId, message.deliveryId),
      UpdateExpression: 'SET claimedUntil = :until',
      ExpressionAttributeValues: { ':until': until.toISOString() },
    }),
  );
}

describe('webhook attempts counted in the delivery record', () => {
  it('counts the first attempt from the making, and ends the delivery at the 4th failure whatever the receive counts', async () => {
    process.env.WEBHOOK_RETRY_BASE_SECONDS = '0';
    const { receiver, message, stored } = await pendingDelivery(() => 503);
    expect((await stored()).attemptNumber).toBe(1);

    // Receives 1 and 2 never reached the sender (a throttled invocation, a timeout before the
    // handler): the third receive makes the first attempt, and so on.
    const results = [];
    for (const receiveCount of [3, 4, 6, 7]) results.push(await attemptDelivery(message, receiveCount));
    expect(results).toEqual([
      { done: false, retryInSeconds: 0, reason: 'the receiver answered 503', attempt: 2 },
      { done: false, retryInSeconds: 0, reason: 'the receiver answered 503', attempt: 3 },
      { done: false, retryInSeconds: 0, reason: 'the receiver answered 503', attempt: 4 },
      { done: true },
    ]);
    expect(receiver.received).toHaveLength(maxAttempts);
    const ended = await stored();
    expect(ended).toMatchObject({ status: 'failed', attemptNumber: 4 });
    expect(ended.attempts.map((attempt) => attempt.status)).toEqual([503, 503, 503, 503]);
    expect(ended.failureReason).toBe('No 2xx answer after 4 attempts; the last: the receiver answered 503');

    // A copy still on the queue finds the delivery over.
    expect(await attemptDelivery(message, 1)).toEqual({ done: true });
    expect(receiver.received).toHaveLength(maxAttempts);
  });

  it('does not use up an attempt for a message handed again before its retry is due', async () => {
    process.env.WEBHOOK_RETRY_BASE_SECONDS = '60';
    const { receiver, message, stored } = await pendingDelivery(() => 500);
    expect(await attemptDelivery(message, 1)).toEqual({
      done: false,
      retryInSeconds: 60,
      reason: 'the receiver answered 500',
      attempt: 2,
    });
    // A copy of the message (a queue send repeated after its answer was lost) comes at once.
    const early = await attemptDelivery(message, 1);
    expect(early).toMatchObject({ done: false, reason: 'attempt 2 is not due yet', attempt: 2 });
    expect((early as { retryInSeconds: number }).retryInSeconds).toBeGreaterThan(55);
    expect((early as { retryInSeconds: number }).retryInSeconds).toBeLessThanOrEqual(60);
    expect(receiver.received).toHaveLength(1);
    expect(await stored()).toMatchObject({ status: 'pending', attemptNumber: 2 });
    expect((await stored()).attempts).toHaveLength(1);
  });

  it('attempts once when two copies of a message are handled at the same time, for a first delivery and a re-send', async () => {
    process.env.WEBHOOK_RETRY_BASE_SECONDS = '0';
    const to = await subscribed(() => 503);
    const first = firstDelivery(to);
    const resent = await makeDelivery(to);
    // The copy that lost the first delivery's making finds its attempt held and comes back later;
    // the copy that lost a claim is dropped, the winner's message carrying the delivery on.
    const losers = [
      expect.objectContaining({ done: false, reason: 'attempt 1 is under way' }),
      { done: true },
    ];
    for (const [index, { message, stored }] of [first, resent].entries()) {
      const before = to.receiver.received.length;
      const results = await Promise.all([attemptDelivery(message, 1), attemptDelivery(message, 1)]);
      expect(to.receiver.received.length - before).toBe(1);
      expect(results).toContainEqual(losers[index]);
      expect(results).toContainEqual({
        done: false,
        retryInSeconds: 0,
        reason: 'the receiver answered 503',
        attempt: 2,
      });
      const after = await stored();
      expect(after).toMatchObject({ status: 'pending', attemptNumber: 2 });
      expect(after?.attempts).toHaveLength(1);
      expect(after?.claimedUntil).toBeUndefined();
    }
  });

  it('leaves an attempt another sender holds to it, comes back, and takes it over once that claim has lapsed', async () => {
    process.env.WEBHOOK_RETRY_BASE_SECONDS = '0';
    const { receiver, message, stored } = await pendingDelivery(() => 200);
    // A sender claimed the first attempt and stopped before its POST (its Lambda killed, say).
    await claimedUntil(message, new Date(Date.now() + 60_000));
    expect(await attemptDelivery(message, 1)).toMatchObject({
      done: false,
      reason: 'attempt 1 is under way',
      attempt: 1,
    });
    expect(receiver.received).toHaveLength(0);
    // Its message comes back after the visibility timeout, longer than the claim.
    expect(claimSeconds()).toBeLessThan(queues.webhooks.visibilityTimeoutSeconds);
    await claimedUntil(message, new Date(Date.now() - 1_000));
    expect(await attemptDelivery(message, 2)).toEqual({ done: true });
    expect(receiver.received).toHaveLength(1);
    expect(await stored()).toMatchObject({ status: 'delivered', attemptNumber: 1 });
  });

  it('makes a first delivery failed, unsent, when its subscription was replaced before its first attempt', async () => {
    const to = await subscribed(() => 200);
    const { message, stored } = firstDelivery(to);
    await saveSubscription(
      { businessId: to.businessId, url: to.receiver.url, name: 'Shop', events: [] },
      { replace: true },
    );
    expect(await attemptDelivery(message, 1)).toEqual({ done: true });
    expect(to.receiver.received).toHaveLength(0);
    expect(await stored()).toMatchObject({
      status: 'failed',
      failureReason: 'The webhook subscription was deleted before the event could be delivered',
    });
  });

  it('makes the last attempt on the last receive the redrive allows, due or not, so no pending delivery is parked', async () => {
    process.env.WEBHOOK_RETRY_BASE_SECONDS = '60';
    const { receiver, message, stored } = await pendingDelivery(() => 503);
    await attemptDelivery(message, 1);
    expect(await attemptDelivery(message, queues.webhooks.maxReceiveCount)).toEqual({ done: true });
    expect(receiver.received).toHaveLength(2);
    const ended = await stored();
    expect(ended).toMatchObject({ status: 'failed', attemptNumber: 2 });
    expect(ended.failureReason).toBe('No 2xx answer after 2 attempts; the last: the receiver answered 503');
  });

  it('goes on counting a delivery made before attempts were counted in the record', async () => {
    process.env.WEBHOOK_RETRY_BASE_SECONDS = '0';
    const { receiver, message, stored } = await pendingDelivery((n) => (n < 2 ? 503 : 200));
    await attemptDelivery(message, 1);
    await documentClient.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: deliveryKey(message.businessId, message.deliveryId),
        UpdateExpression: 'REMOVE attemptNumber',
      }),
    );
    expect(await attemptDelivery(message, 5)).toEqual({ done: true });
    expect(receiver.received).toHaveLength(2);
    expect(await stored()).toMatchObject({ status: 'delivered', attemptNumber: 2 });
  });

  it('keeps the redrive a safety net above the attempts: at least 5 receives, more than the attempts', () => {
    expect(queues.webhooks.maxReceiveCount).toBeGreaterThanOrEqual(5);
    expect(queues.webhooks.maxReceiveCount).toBeGreaterThan(maxAttempts);
  });

  it('costs 2 write units for a delivery delivered at its first attempt, its making (and claim) included', async () => {
    process.env.WEBHOOK_RETRY_BASE_SECONDS = '0';
    const to = await subscribed(() => 200);
    const { message, stored } = firstDelivery(to);
    const { units, result } = await measureUnits(() => attemptDelivery(message, 1));
    expect(result).toEqual({ done: true });
    // The put that makes it, claiming its first attempt, and the update that records the attempt.
    expect(units.writtenKeys.map((key) => key.split('|')[1]?.split('#')[0])).toEqual([
      'WHDELIVERY',
      'WHDELIVERY',
    ]);
    expect(units.awsWrite).toBe(2);
    expect(units.largestItemBytes).toBeLessThan(1024);
    expect(await stored()).toMatchObject({ status: 'delivered', body: JSON.stringify(message.event.body) });
  });
});
