import { randomUUID } from 'node:crypto';
import { PurgeQueueCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { ensureQueues } from '#infra/local/create-queues.ts';
import { startSqsStandIn } from '#infra/local/sqs.ts';
import { queueUrlVariable } from '#shared/routes.ts';
import { itemBytes } from '#test/bench/bench-dynamodb.ts';
import { merchant } from '#test/support/fixtures.ts';

// The dispatch sends to the webhook queue: an SQS stand-in of this file's own, set up before the
// modules that build the SQS client are imported.
const sqsStandIn = await startSqsStandIn();
process.env.AWS_ENDPOINT_URL_SQS = sqsStandIn.endpoint;
const client = new SQSClient({});
const queueUrl = (await ensureQueues(client)).get('webhooks') as string;
process.env[queueUrlVariable('webhooks')] = queueUrl;

const { documentClient, tableName } = await import('#shared/aws/dynamodb.ts');
const { outboxKey, outboxWrite } = await import('#shared/data/outbox.ts');
const { createDelivery, deliveryIdFor, listDeliveries, recordAttempt } = await import(
  '#shared/data/webhook-delivery.ts'
);
const { saveSubscription } = await import('#shared/data/webhook-subscription.ts');
const { dispatchOutboxEvent, sweepOutbox } = await import('#shared/operations/webhook-dispatch.ts');
type OutboxEvent = import('#shared/data/outbox.ts').OutboxEvent;

afterAll(async () => {
  client.destroy();
  await sqsStandIn.stop();
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

/** An event as a state change writes it to the outbox, `ageMs` ago. */
async function writeEvent(
  businessId: string,
  ageMs = 0,
  name = 'TRANSACTION_COMPLETED',
): Promise<OutboxEvent> {
  const transactionId = randomUUID();
  const event: OutboxEvent = {
    id: `${name}:${transactionId}`,
    name,
    businessId,
    createdAt: new Date(Date.now() - ageMs).toISOString(),
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
  it('makes one delivery for the subscription, queues it, and takes the event out of the pending index', async () => {
    const m = await subscribedMerchant();
    const event = await writeEvent(m.business.id);
    expect(await dispatchOutboxEvent(event)).toBe('queued');

    const { total, items } = await deliveriesOf(m.business.id);
    expect(total).toBe(1);
    expect(items[0]).toMatchObject({
      id: deliveryIdFor(event.id, m.subscription.id),
      subscriptionId: m.subscription.id,
      eventId: event.id,
      eventName: 'TRANSACTION_COMPLETED',
      url: 'https://hooks.shop.example/pps',
      body: JSON.stringify(event.body),
      status: 'pending',
      attempts: [],
    });
    expect(await queued()).toEqual([{ businessId: m.business.id, deliveryId: items[0]?.id }]);
    const stored = await outboxItem(event.id);
    expect(stored?.status).toBe('queued');
    expect(stored?.gsi1pk).toBeUndefined();
    expect(stored?.gsi1sk).toBeUndefined();
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
      const stored = await outboxItem(event.id);
      expect(stored?.status).toBe('no_subscriber');
      expect(stored?.gsi1pk).toBeUndefined();
    }
    expect(await queued()).toEqual([]);
  });
});

describe('the outbox sweeper', () => {
  it('dispatches pending events older than a minute, oldest first, and leaves fresh and queued ones', async () => {
    const m = await subscribedMerchant();
    const stranded = await writeEvent(m.business.id, 5 * 60_000);
    const fresh = await writeEvent(m.business.id, 1_000);
    const done = await writeEvent(m.business.id, 10 * 60_000);
    await dispatchOutboxEvent(done);
    await queued();

    const report = await sweepOutbox();
    expect(report.failed).toBe(0);
    expect((await outboxItem(stranded.id))?.status).toBe('queued');
    expect((await outboxItem(fresh.id))?.status).toBe('pending');
    const { items } = await deliveriesOf(m.business.id);
    expect(items.map((delivery) => delivery.eventId).sort()).toEqual([stranded.id, done.id].sort());
    expect(await queued()).toEqual([
      { businessId: m.business.id, deliveryId: deliveryIdFor(stranded.id, m.subscription.id) },
    ]);

    // The next run finds nothing of these left to do.
    await sweepOutbox();
    expect(await queued()).toEqual([]);
  });

  it('sends the delivery of a dispatch that stopped before queueing it, without making another', async () => {
    const m = await subscribedMerchant();
    const event = await writeEvent(m.business.id, 2 * 60_000);
    // What a crash right after creating the delivery leaves: the delivery, the event still pending.
    const createdAt = new Date().toISOString();
    await createDelivery({
      id: deliveryIdFor(event.id, m.subscription.id),
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

    await sweepOutbox();
    expect((await deliveriesOf(m.business.id)).total).toBe(1);
    expect(await queued()).toEqual([
      { businessId: m.business.id, deliveryId: deliveryIdFor(event.id, m.subscription.id) },
    ]);
    expect((await outboxItem(event.id))?.status).toBe('queued');
  });

  it('dispatches at most its batch per run, oldest first', async () => {
    const m = await subscribedMerchant();
    const events = [];
    for (let i = 0; i < 3; i++) events.push(await writeEvent(m.business.id, 60 * 60_000 - i * 1_000));
    // The tests before this one left nothing pending that is older.
    const report = await sweepOutbox(new Date(), 1);
    expect(report.found).toBe(1);
    expect((await outboxItem(events[0]?.id as string))?.status).toBe('queued');
    expect((await outboxItem(events[1]?.id as string))?.status).toBe('pending');
  });
});
