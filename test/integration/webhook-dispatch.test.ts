import { randomUUID } from 'node:crypto';
import { PurgeQueueCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { ensureQueues } from '#infra/local/create-queues.ts';
import { startLocalSqs } from '#infra/local/sqs.ts';
import { queueUrlVariable } from '#shared/catalogue/queues.ts';
import { itemBytes } from '#test/bench/bench-dynamodb.ts';
import { merchant } from '#test/support/fixtures.ts';

// The dispatch sends to the webhook queue: a local SQS of this file's own, set up before the
// modules that build the SQS client are imported.
const localSqs = await startLocalSqs();
process.env.AWS_ENDPOINT_URL_SQS = localSqs.endpoint;
const client = new SQSClient({});
const queueUrl = (await ensureQueues(client, localSqs.endpoint)).get('webhooks') as string;
process.env[queueUrlVariable('webhooks')] = queueUrl;

const { documentClient, tableName } = await import('#shared/aws/dynamodb.ts');
const { outboxKey, outboxWrite } = await import('#shared/data/outbox.ts');
const { createDelivery, deliveryIdFor, listDeliveries, recordAttempt } = await import(
  '#shared/data/webhook-delivery.ts'
);
const { saveSubscription } = await import('#shared/data/webhook-subscription.ts');
const { dispatchOutboxEvent, sweepOutbox, sweepPass } = await import(
  '#shared/operations/webhook-dispatch.ts'
);
type OutboxEvent = import('#shared/data/outbox.ts').OutboxEvent;

afterAll(async () => {
  client.destroy();
  await localSqs.stop();
});

beforeEach(async () => {
  await client.send(new PurgeQueueCommand({ QueueUrl: queueUrl }));
});

/** Every message on the webhook queue now, as parsed bodies. */
async function queued(): Promise<{ businessId: string; deliveryId: string }[]> {
  const bodies = [];
  for (;;) {
    const { Messages = [] } = await client.send(
      new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, VisibilityTimeout: 60 }),
    );
    if (Messages.length === 0) return bodies;
    bodies.push(...Messages.map((message) => JSON.parse(message.Body as string)));
  }
}

/** An event as a state change writes it to the outbox, `ageMs` before `now`. */
async function writeEvent(
  businessId: string,
  ageMs = 0,
  now = new Date(),
  name = 'TRANSACTION_COMPLETED',
): Promise<OutboxEvent> {
  const transactionId = randomUUID();
  const event: OutboxEvent = {
    id: `${name}:${transactionId}`,
    name,
    businessId,
    createdAt: new Date(now.getTime() - ageMs).toISOString(),
    body: { id: transactionId, status: 'success', amount: { amount: 150_000, currency: 'XOF' } },
  };
  const put = outboxWrite(event).write.Put;
  if (!put) throw new Error('the outbox write is a put');
  await documentClient.send(new PutCommand(put as ConstructorParameters<typeof PutCommand>[0]));
  return event;
}

async function outboxItem(eventId: string) {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: tableName(), Key: outboxKey(eventId), ConsistentRead: true }),
  );
  return Item;
}

async function subscribedMerchant(events: string[] = []) {
  const m = await merchant();
  const subscription = await saveSubscription(
    { businessId: m.business.id, url: 'https://hooks.shop.example/pps', name: 'Shop', events },
    { replace: true },
  );
  return { ...m, subscription };
}

const deliveriesOf = (businessId: string) => listDeliveries(businessId, { page: 1, limit: 100 });

describe('dispatching an outbox event', () => {
  it('makes one delivery for the subscription and queues it, leaving the event as written', async () => {
    const m = await subscribedMerchant();
    const event = await writeEvent(m.business.id);
    expect(await dispatchOutboxEvent(event)).toBe('queued');

    const { total, items } = await deliveriesOf(m.business.id);
    expect(total).toBe(1);
    expect(items[0]).toMatchObject({
      id: deliveryIdFor(event, m.subscription.id),
      subscriptionId: m.subscription.id,
      eventId: event.id,
      eventName: 'TRANSACTION_COMPLETED',
      url: 'https://hooks.shop.example/pps',
      body: JSON.stringify(event.body),
      status: 'pending',
      attempts: [],
    });
    expect(await queued()).toEqual([{ businessId: m.business.id, deliveryId: items[0]?.id }]);
    // Nothing marks it done: a write unit each, where the sweeper reads the delivery instead.
    const stored = await outboxItem(event.id);
    expect(stored?.gsi1sk).toBe(`${event.createdAt}#${event.id}`);
    expect(stored?.status).toBeUndefined();
    expect(stored?.doneAt).toBeUndefined();
  });

  it('stores the body deflated, under 1 KB with its first attempt, and reads back the same bytes', async () => {
    const m = await subscribedMerchant();
    const body = JSON.stringify({
      id: randomUUID(),
      storeName: 'Boutique Élodie – Cocody 🛍',
      description: 'Paiement \u2028 "guillemets" \\ et accents: àéîõü',
      amount: { amount: 150_000, currency: 'XOF' },
      transactionDetails: { id: randomUUID(), reference: 'ORDER-42' },
    });
    const now = new Date().toISOString();
    const { delivery } = await createDelivery({
      id: randomUUID(),
      businessId: m.business.id,
      subscriptionId: m.subscription.id,
      eventId: `TRANSACTION_COMPLETED:${randomUUID()}`,
      eventName: 'TRANSACTION_COMPLETED',
      url: m.subscription.url,
      body,
      status: 'pending',
      attempts: [],
      createdAt: now,
      updatedAt: now,
    });
    await recordAttempt(
      delivery,
      { at: now, status: 200, durationMs: 12, responseExcerpt: 'ok' },
      'delivered',
    );
    const { Item } = await documentClient.send(
      new GetCommand({
        TableName: tableName(),
        Key: { pk: `BIZ#${m.business.id}`, sk: `WHDELIVERY#${delivery.id}` },
        ConsistentRead: true,
      }),
    );
    if (!Item) throw new Error('the delivery is stored');
    expect(Item.body).toBeUndefined();
    expect(Item.bodyDeflated).toBeInstanceOf(Uint8Array);
    expect((Item.bodyDeflated as Uint8Array).length).toBeLessThan(Buffer.byteLength(body));
    // Sized as DynamoDB bills it, which is what keeps the attempt at 1 WCU.
    expect(itemBytes(marshall(Item))).toBeLessThan(1024);
    const { items } = await deliveriesOf(m.business.id);
    expect(items[0]?.body).toBe(body);
  });

  it('makes no second delivery when run again, or by several dispatchers at once', async () => {
    const m = await subscribedMerchant();
    const event = await writeEvent(m.business.id);
    await Promise.all(Array.from({ length: 5 }, () => dispatchOutboxEvent(event)));
    await dispatchOutboxEvent(event);

    const { total, items } = await deliveriesOf(m.business.id);
    expect(total).toBe(1);
    // Racing dispatchers may each send the delivery they found pending; it is one delivery still.
    const messages = await queued();
    expect(messages.length).toBeGreaterThanOrEqual(1);
    expect(new Set(messages.map((message) => message.deliveryId))).toEqual(new Set([items[0]?.id]));
  });

  it('does not queue again a delivery that has been attempted', async () => {
    const m = await subscribedMerchant();
    const event = await writeEvent(m.business.id);
    await dispatchOutboxEvent(event);
    const [delivery] = (await deliveriesOf(m.business.id)).items;
    await recordAttempt(
      delivery as NonNullable<typeof delivery>,
      { at: new Date().toISOString(), status: 503, durationMs: 12, responseExcerpt: '' },
      'pending',
    );
    await queued();

    await dispatchOutboxEvent(event);
    expect(await queued()).toEqual([]);
  });

  it('makes no delivery when the business has no subscription, or one to other events', async () => {
    const unsubscribed = await merchant();
    const elsewhere = await subscribedMerchant(['ESCROW_HELD']);
    for (const businessId of [unsubscribed.business.id, elsewhere.business.id]) {
      const event = await writeEvent(businessId);
      expect(await dispatchOutboxEvent(event)).toBe('not_subscribed');
      expect((await deliveriesOf(businessId)).total).toBe(0);
    }
    expect(await queued()).toEqual([]);
  });
});

describe('the outbox sweeper', () => {
  // The cursor only moves forward, so each test sweeps at a later hour of its own: its events are
  // written ahead of the cursor the tests before it left.
  const hoursAhead = (hours: number) => new Date(Date.now() + hours * 60 * 60_000);

  it('does not send an event to a subscription made after it, nor to a business without one', async () => {
    const now = new Date();
    const unsubscribed = await merchant();
    await writeEvent(unsubscribed.business.id, 2 * 60_000, now);
    const m = await merchant();
    await writeEvent(m.business.id, 2 * 60_000, now);
    await saveSubscription(
      { businessId: m.business.id, url: 'https://hooks.shop.example/pps', name: 'Shop', events: [] },
      { replace: true },
    );
    const report = await sweepOutbox(now);
    expect(report).toMatchObject({ queued: 0, notSubscribed: 2, failed: 0 });
    expect((await deliveriesOf(m.business.id)).total).toBe(0);
    expect(await queued()).toEqual([]);
  });

  it('dispatches the events older than a minute whose delivery is missing, and leaves fresh and dispatched ones', async () => {
    // The events of the tests above, dispatched at once, are behind the cursor after this.
    await sweepOutbox(hoursAhead(0.5));
    await queued();
    const now = hoursAhead(1);
    const m = await subscribedMerchant();
    const stranded = await writeEvent(m.business.id, 5 * 60_000, now);
    const fresh = await writeEvent(m.business.id, 1_000, now);
    const done = await writeEvent(m.business.id, 10 * 60_000, now);
    await dispatchOutboxEvent(done);
    await queued();
    // Its message was received and attempted: the sender has it.
    await recordAttempt(
      { businessId: m.business.id, id: deliveryIdFor(done, m.subscription.id) },
      { at: new Date().toISOString(), status: 503, durationMs: 12, responseExcerpt: '' },
      'pending',
    );

    const report = await sweepOutbox(now);
    expect(report).toMatchObject({ queued: 1, alreadyDispatched: 1, failed: 0 });
    const { items } = await deliveriesOf(m.business.id);
    expect(items.map((delivery) => delivery.eventId).sort()).toEqual([stranded.id, done.id].sort());
    expect(await queued()).toEqual([
      { businessId: m.business.id, deliveryId: deliveryIdFor(stranded, m.subscription.id) },
    ]);

    // The next run finds nothing of these left to do; the fresh one once it is a minute old.
    await sweepOutbox(now);
    expect(await queued()).toEqual([]);
    expect((await sweepOutbox(new Date(now.getTime() + 60_000))).queued).toBe(1);
    expect(await queued()).toEqual([
      { businessId: m.business.id, deliveryId: deliveryIdFor(fresh, m.subscription.id) },
    ]);
  });

  it('sends, after 15 minutes, the delivery of a dispatch that stopped before queueing it, without making another', async () => {
    const now = hoursAhead(2);
    const m = await subscribedMerchant();
    const event = await writeEvent(m.business.id, 20 * 60_000, now);
    const young = await writeEvent(m.business.id, 5 * 60_000, now);
    // What a crash right after creating the delivery leaves: the delivery, never sent.
    const createdAt = new Date().toISOString();
    await createDelivery({
      id: deliveryIdFor(event, m.subscription.id),
      businessId: m.business.id,
      subscriptionId: m.subscription.id,
      eventId: event.id,
      eventName: event.name,
      url: m.subscription.url,
      body: JSON.stringify(event.body),
      status: 'pending',
      attempts: [],
      createdAt,
      updatedAt: createdAt,
    });
    // The other one was made and sent, and is not attempted yet: it may be on the queue still.
    await dispatchOutboxEvent(young);
    await queued();

    await sweepOutbox(now);
    expect((await deliveriesOf(m.business.id)).total).toBe(2);
    // The tests above left deliveries never attempted (nothing sends them here): theirs are sent too.
    expect((await queued()).filter((message) => message.businessId === m.business.id)).toEqual([
      { businessId: m.business.id, deliveryId: deliveryIdFor(event, m.subscription.id) },
    ]);
  });

  it('dispatches at most its batch per run, oldest first, and goes on from there the next run', async () => {
    const now = hoursAhead(4);
    const m = await subscribedMerchant();
    const events = [];
    for (let i = 0; i < 3; i++) events.push(await writeEvent(m.business.id, 5 * 60_000 - i * 1_000, now));
    const report = await sweepPass('missing', now, 1);
    expect(report).toMatchObject({ found: 1, queued: 1 });
    expect(await queued()).toEqual([
      { businessId: m.business.id, deliveryId: deliveryIdFor(events[0] as OutboxEvent, m.subscription.id) },
    ]);
    // The one already handled is not looked at again.
    expect(await sweepPass('missing', new Date(now.getTime() + 60_000), 2)).toMatchObject({
      found: 2,
      queued: 2,
    });
    expect(new Set((await queued()).map((message) => message.deliveryId))).toEqual(
      new Set(events.slice(1).map((event) => deliveryIdFor(event, m.subscription.id))),
    );
  });
});
