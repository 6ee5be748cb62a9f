import { randomUUID } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { PurgeQueueCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ensureQueues } from '#infra/local/create-queues.ts';
import { startLocalSqs } from '#infra/local/sqs.ts';
import { queueUrlVariable } from '#shared/catalogue/queues.ts';
import { merchant } from '#test/support/fixtures.ts';
import { streamChangesOf } from '#test/support/table-stream.ts';

// The dispatcher sends to the webhook queue: a local SQS of this file's own, set up before the
// modules that build the SQS client are imported.
const localSqs = await startLocalSqs();
process.env.AWS_ENDPOINT_URL_SQS = localSqs.endpoint;
const client = new SQSClient({});
const queueUrls = await ensureQueues(client, localSqs.endpoint);
for (const [name, url] of queueUrls) process.env[queueUrlVariable(name)] = url;
const queueUrl = queueUrls.get('webhooks') as string;
const smsQueueUrl = queueUrls.get('sms') as string;
const smsEventsQueueUrl = queueUrls.get('smsEvents') as string;

const { tableName } = await import('#shared/aws/dynamodb.ts');
const { deliveryIdFor, getDelivery, recordAttempt } = await import('#shared/data/webhook-delivery.ts');
const { saveSubscription } = await import('#shared/data/webhook-subscription.ts');
const { failAtOnce } = await import('#shared/data/payment-request.ts');
const { completePayment } = await import('#shared/operations/complete-payment.ts');
const { createPaymentRequestFor, startCollection } = await import('#shared/operations/payment-requests.ts');
const { dispatchChange } = await import('#shared/operations/stream-dispatch.ts');
const { dispatchPromptly } = await import('#shared/operations/webhook-dispatch.ts');
const { attemptDelivery } = await import('#shared/operations/webhook-send.ts');
const { handler } = await import('#functions/workers/dispatch-table-changes.ts');
const { handler: sendSms } = await import('#functions/workers/send-sms.ts');
const { sqs } = await import('#shared/aws/sqs.ts');
const { createMessage, creditSms, getMessage, getOrCreateAccount } = await import('#shared/data/message.ts');
const { creditSmsBalance, sendMessageFor, smsRescueDelaySeconds } = await import(
  '#shared/operations/messages.ts'
);
const { pollTableStream } = await import('#infra/local/stream-poller.ts');

const baseUrl = 'http://localhost:0';

beforeAll(() => {
  process.env.SANDBOX = 'true';
});

afterAll(async () => {
  client.destroy();
  await localSqs.stop();
});

beforeEach(async () => {
  for (const url of [queueUrl, smsQueueUrl, smsEventsQueueUrl])
    await client.send(new PurgeQueueCommand({ QueueUrl: url }));
});

/** Every message on the webhook queue now (delayed ones are not visible yet). */
async function queued(): Promise<{ businessId: string; deliveryId: string; ifNeverAttempted?: true }[]> {
  const bodies = [];
  for (;;) {
    const { Messages = [] } = await client.send(
      new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, VisibilityTimeout: 60 }),
    );
    if (Messages.length === 0) return bodies;
    bodies.push(...Messages.map((message) => JSON.parse(message.Body as string)));
  }
}

async function subscribedMerchant() {
  const m = await merchant();
  const subscription = await saveSubscription(
    // The receiver is never called here: messages stay on the queue.
    { businessId: m.business.id, url: 'https://hooks.shop.example/pps', name: 'Shop', events: [] },
    { replace: true },
  );
  return { ...m, subscription };
}

type Subscribed = Awaited<ReturnType<typeof subscribedMerchant>>;

async function startedRequest(m: Subscribed, options: { escrow?: true } = {}) {
  const request = await createPaymentRequestFor(
    options.escrow ? { ...m.caller, keyKind: 'platform' } : m.caller,
    {
      storeId: m.store.id,
      amountCents: 150_000,
      currency: 'XOF',
      reference: `ref-${randomUUID()}`,
      ...(options.escrow ? { escrow: { holdDays: 1, onExpiry: 'release' as const } } : {}),
      paymentDetails: {
        type: 'redirect',
        data: { paymentMethod: 'wave', successUrl: 'https://shop.example/ok', errorUrl: 'myapp://failed' },
      },
    },
    baseUrl,
  );
  return startCollection(request, 'redirect', 'wave', '+2250700000001', baseUrl);
}

async function complete(m: Subscribed, options: { escrow?: true } = {}) {
  const request = await startedRequest(m, options);
  const completion = await completePayment({
    callbackId: randomUUID(),
    provider: 'wave',
    providerReference: request.providerReference as string,
    paymentRequestId: request.id,
    outcome: 'success',
    payerPhone: '+2250700000001',
  });
  expect(completion.result).toBe('completed');
  const [event] = completion.events;
  if (!event) throw new Error('the completion announces an event');
  return { request, event, deliveryId: deliveryIdFor(event, m.subscription.id) };
}

/** The changes of one partition as Lambda hands them to the function. */
async function streamEventOfPartition(partitionKey: string): Promise<DynamoDBStreamEvent> {
  const changes = await streamChangesOf(partitionKey);
  return {
    Records: changes.map((change, index) => ({
      eventID: String(index),
      eventName: change.eventName as 'INSERT' | 'MODIFY' | 'REMOVE',
      eventSource: 'aws:dynamodb',
      dynamodb: {
        SequenceNumber: String(index),
        OldImage: change.oldImage as never,
        NewImage: change.newImage as never,
      },
    })),
  };
}

/** The request's changes as Lambda hands them to the function. */
const streamEventOf = (requestId: string) => streamEventOfPartition(`PAYREQ#${requestId}`);

describe('the table stream as the outbox of payment completions', () => {
  it('dispatches a completion whose function stopped before dispatching it, once', async () => {
    const m = await subscribedMerchant();
    const { request, event, deliveryId } = await complete(m);
    // The completing function stopped here: no delivery.
    expect(await getDelivery(m.business.id, deliveryId, true)).toBeUndefined();

    const stream = await streamEventOf(request.id);
    // Created, started, completed: only the completion is an event.
    expect(stream.Records.map((record) => record.eventName)).toEqual(['INSERT', 'MODIFY', 'MODIFY']);
    const answer = await handler(stream, {} as never);
    expect(answer).toEqual({ batchItemFailures: [] });
    expect(await getDelivery(m.business.id, deliveryId, true)).toMatchObject({
      eventId: event.id,
      status: 'pending',
      body: JSON.stringify(event.body),
    });
    expect(await queued()).toEqual([{ businessId: m.business.id, deliveryId }]);
  });

  it('announces a payment held in escrow as ESCROW_HELD, the event its completion announced', async () => {
    const m = await subscribedMerchant();
    const { request, event, deliveryId } = await complete(m, { escrow: true });
    expect(event).toMatchObject({ id: `ESCROW_HELD:${request.escrow?.id}`, name: 'ESCROW_HELD' });

    expect(await handler(await streamEventOf(request.id), {} as never)).toEqual({ batchItemFailures: [] });
    expect(await getDelivery(m.business.id, deliveryId, true)).toMatchObject({
      eventId: event.id,
      body: JSON.stringify(event.body),
    });
    expect(await queued()).toEqual([{ businessId: m.business.id, deliveryId }]);
  });

  it('sends nothing now for a completion dispatched promptly: a check in 15 minutes, dropped if it was attempted', async () => {
    const m = await subscribedMerchant();
    const { request, event, deliveryId } = await complete(m);
    await dispatchPromptly([event]);
    expect(await queued()).toEqual([{ businessId: m.business.id, deliveryId }]);

    const [, , completion] = (await streamEventOf(request.id)).Records;
    const change = {
      eventName: completion?.eventName,
      oldImage: completion?.dynamodb?.OldImage as never,
      newImage: completion?.dynamodb?.NewImage as never,
    };
    expect(await dispatchChange(change)).toBe('recovery_queued');
    // Delayed by SQS's 15 minutes: nothing to receive now.
    expect(await queued()).toEqual([]);

    // Once attempted, a later change of the same completion (a retried batch) leaves it alone, and
    // the recovery message, when it comes, does not send it again.
    const delivery = await getDelivery(m.business.id, deliveryId, true);
    if (!delivery) throw new Error('the prompt dispatch made the delivery');
    await recordAttempt(
      delivery,
      { at: new Date().toISOString(), status: 500, durationMs: 5, responseExcerpt: '' },
      'pending',
    );
    expect(await dispatchChange(change)).toBe('already_dispatched');
    expect(
      await attemptDelivery({ businessId: m.business.id, deliveryId, ifNeverAttempted: true }, 1),
    ).toEqual({
      done: true,
    });
    expect((await getDelivery(m.business.id, deliveryId, true))?.attempts).toHaveLength(1);
  });

  it('announces nothing for a request the provider refused at once, nor for a business without a subscription', async () => {
    const m = await subscribedMerchant();
    const refused = await startedRequest(m);
    await failAtOnce(refused, 'provider_refused');
    const [, , refusal] = await streamChangesOf(`PAYREQ#${refused.id}`);
    expect(refusal).toBeDefined();
    expect(await dispatchChange(refusal as never)).toBe('ignored');

    const unsubscribed = await merchant();
    const request = await startedRequest({ ...unsubscribed, subscription: m.subscription });
    await completePayment({
      callbackId: randomUUID(),
      provider: 'wave',
      providerReference: request.providerReference as string,
      paymentRequestId: request.id,
      outcome: 'success',
    });
    const changes = await streamChangesOf(`PAYREQ#${request.id}`);
    expect(await dispatchChange(changes.at(-1) as never)).toBe('not_subscribed');
    expect(await queued()).toEqual([]);
  });

  it("is read on the local host as Lambda's event source mapping reads it, a failed record tried again", async () => {
    const m = await subscribedMerchant();
    let calls = 0;
    const poller = pollTableStream({
      dynamodb: new DynamoDBClient({}),
      streams: new DynamoDBStreamsClient({ endpoint: process.env.AWS_ENDPOINT_URL_DYNAMODB }),
      tableName: tableName(),
      functionName: 'dispatchTableChanges',
      batchSize: 100,
      idleMs: 50,
      // The first batch that reaches the function fails whole, as a throttled call would.
      handler: async (event, context) => {
        calls++;
        if (calls === 1) throw new Error('throttled');
        return handler(event, context);
      },
    });
    try {
      // Give the poller its starting position (LATEST) before the change.
      await new Promise((resolve) => setTimeout(resolve, 500));
      const { deliveryId } = await complete(m);
      const deadline = Date.now() + 20_000;
      while (!(await getDelivery(m.business.id, deliveryId, true)) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(await getDelivery(m.business.id, deliveryId, true)).toBeDefined();
      expect(calls).toBeGreaterThan(1);
      expect(await queued()).toEqual([{ businessId: m.business.id, deliveryId }]);
    } finally {
      await poller.stop();
    }
  });
});

describe('the table stream as the outbox of SMS', () => {
  /**
   * The delays the service asked for on the `sms` queue. The test does not wait them out: the
   * copies are made visible at once, as they will be once their delay has passed.
   */
  const delaysAsked: (number | undefined)[] = [];
  sqs.middlewareStack.add(
    (next) => async (args) => {
      const input = args.input as { QueueUrl?: string; DelaySeconds?: number };
      if (input.QueueUrl === smsQueueUrl) {
        delaysAsked.push(input.DelaySeconds);
        input.DelaySeconds = undefined;
      }
      return next(args);
    },
    { step: 'initialize', name: 'smsDelaysSkipped' },
  );
  beforeEach(() => {
    delaysAsked.length = 0;
  });

  /** Takes every message on `url` now. */
  async function received(url: string) {
    const messages = [];
    for (;;) {
      const { Messages = [] } = await client.send(
        new ReceiveMessageCommand({
          QueueUrl: url,
          MaxNumberOfMessages: 10,
          VisibilityTimeout: 60,
          MessageSystemAttributeNames: ['ApproximateReceiveCount'],
        }),
      );
      if (Messages.length === 0) return messages;
      messages.push(...Messages);
    }
  }

  /**
   * Hands the `sms` queue's messages to the real sender worker, as Lambda would, and answers the
   * batch's failures (a copy that found the message claimed by another goes back to the queue).
   */
  async function sendQueued(messages: Awaited<ReturnType<typeof received>>, failuresAllowed = 0) {
    const answer = await sendSms(
      {
        Records: messages.map((message) => ({
          messageId: message.MessageId as string,
          receiptHandle: message.ReceiptHandle as string,
          body: message.Body as string,
          attributes: { ApproximateReceiveCount: '1' } as never,
          messageAttributes: {},
          md5OfBody: '',
          eventSource: 'aws:sqs',
          eventSourceARN: 'arn:aws:sqs:eu-west-1:000000000000:sms',
          awsRegion: 'eu-west-1',
        })),
      },
      {} as never,
    );
    expect((answer as { batchItemFailures: unknown[] }).batchItemFailures.length).toBeLessThanOrEqual(
      failuresAllowed,
    );
  }

  /** The message's changes as Lambda hands them to the stream consumer. */
  async function feedStream(businessId: string) {
    const answer = await handler(await streamEventOfPartition(`BIZ#${businessId}`), {} as never);
    expect(answer).toEqual({ batchItemFailures: [] });
  }

  it('sends a message whose recording function died before queueing it, once', async () => {
    const businessId = randomUUID();
    await creditSms(businessId, 5, 'topup');
    const now = new Date().toISOString();
    const message = {
      id: randomUUID(),
      businessId,
      channel: 'sms' as const,
      to: '+2250700000001',
      body: 'Votre code: 1234',
      reference: randomUUID(),
      status: 'pending' as const,
      failedReason: null,
      segments: 1,
      encoding: 'GSM-7' as const,
      charged: true,
      createdAt: now,
      updatedAt: now,
    };
    // What `POST /messages` writes before its queue send; the function dies there.
    await createMessage(message);
    expect(await received(smsQueueUrl)).toEqual([]);

    await feedStream(businessId);
    expect(delaysAsked).toEqual([smsRescueDelaySeconds]);
    const copies = await received(smsQueueUrl);
    expect(copies.map((copy) => JSON.parse(copy.Body as string))).toEqual([
      { businessId, messageId: message.id },
    ]);
    await sendQueued(copies);
    expect(await getMessage(businessId, message.id, true)).toMatchObject({ status: 'sent' });
    // The sandbox gateway reports each message it takes: this one once.
    expect(await received(smsEventsQueueUrl)).toHaveLength(1);
    expect((await getOrCreateAccount(businessId)).smsBalance).toBe(4);
  });

  it("leaves a message its prompt copy sent alone: the stream's copy sends nothing", async () => {
    const m = await merchant();
    await creditSmsBalance(m.business.id, 5);
    const message = await sendMessageFor(m.caller, {
      channel: 'sms',
      to: '+2250700000001',
      body: 'Merci pour votre achat',
      reference: randomUUID(),
    });
    expect(delaysAsked).toEqual([undefined]);
    await feedStream(m.business.id);
    expect(delaysAsked).toEqual([undefined, smsRescueDelaySeconds]);
    const copies = await received(smsQueueUrl);
    expect(copies).toHaveLength(2);
    // Both copies at once, and then one after the other: the gateway takes the message once.
    await sendQueued(copies, 1);
    await sendQueued(copies);
    expect(await getMessage(m.business.id, message.id, true)).toMatchObject({ status: 'sent' });
    expect(await received(smsEventsQueueUrl)).toHaveLength(1);
  });
});
