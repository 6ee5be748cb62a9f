import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

/**
 * The table's stream is the one way events leave (shared/events/): the stream's consumer queues
 * each change's webhook, each recorded SMS and each new request's expiry check, and nothing else
 * does. A local SQS of this file's own, set up before the modules that build the SQS client.
 */
const localSqs = await startLocalSqs();
process.env.AWS_ENDPOINT_URL_SQS = localSqs.endpoint;
const client = new SQSClient({});
const queueUrls = await ensureQueues(client, localSqs.endpoint);
for (const [name, url] of queueUrls) process.env[queueUrlVariable(name)] = url;
const url = (name: string) => queueUrls.get(name as never) as string;

const { tableName } = await import('#shared/aws/dynamodb.ts');
const { getDelivery } = await import('#shared/data/webhook-delivery.ts');
const { saveSubscription } = await import('#shared/data/webhook-subscription.ts');
const { failAtOnce } = await import('#shared/data/payment-request.ts');
const { completePayment } = await import('#shared/settlement/collections.ts');
const { createPaymentRequestFor, startCollection } = await import('#shared/operations/payment-requests.ts');
const { createTransferFor } = await import('#shared/operations/transfers.ts');
const { createTransferBody } = await import('#shared/api/transfers.ts');
const { createStore } = await import('#shared/data/store.ts');
const { creditStore } = await import('#shared/operations/credit.ts');
const { handler } = await import('#functions/workers/dispatch-table-changes.ts');
const { handler: sendSms } = await import('#functions/workers/send-sms.ts');
const { creditSmsBalance, sendMessageFor } = await import('#shared/operations/messages.ts');
const { getMessage } = await import('#shared/data/message.ts');
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
  for (const name of ['webhooks', 'sms', 'smsEvents', 'paymentExpiry'])
    await client.send(new PurgeQueueCommand({ QueueUrl: url(name) }));
});

/** Every message on a queue now, as parsed bodies. */
async function received(name: string): Promise<Record<string, unknown>[]> {
  const bodies = [];
  for (;;) {
    const { Messages = [] } = await client.send(
      new ReceiveMessageCommand({ QueueUrl: url(name), MaxNumberOfMessages: 10, VisibilityTimeout: 60 }),
    );
    if (Messages.length === 0) return bodies;
    bodies.push(...Messages.map((message) => JSON.parse(message.Body as string)));
  }
}

async function subscribedMerchant(events: string[] = []) {
  const m = await merchant();
  const subscription = await saveSubscription(
    // The receiver is never called here: messages stay on the queue.
    { businessId: m.business.id, url: 'https://hooks.shop.example/pps', name: 'Shop', events },
    { replace: true },
  );
  return { ...m, subscription };
}

type Merchant = Awaited<ReturnType<typeof merchant>>;

async function startedRequest(m: Merchant, options: { escrow?: true } = {}) {
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

async function paidRequest(m: Merchant, options: { escrow?: true } = {}) {
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
  return request;
}

/** The changes of one partition, as the event source mapping hands them to the consumer. */
async function streamEventOf(partitionKey: string): Promise<DynamoDBStreamEvent> {
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

async function consume(partitionKey: string) {
  expect(await handler(await streamEventOf(partitionKey), {} as never)).toEqual({ batchItemFailures: [] });
}

describe('the table stream, the one way events leave', () => {
  it('queues a completed payment’s webhook from its change, naming the delivery the sender makes', async () => {
    const m = await subscribedMerchant();
    const request = await paidRequest(m);
    // The completing function queued nothing itself.
    expect(await received('webhooks')).toEqual([]);
    await consume(`PAYREQ#${request.id}`);
    const messages = await received('webhooks');
    expect(messages).toHaveLength(1);
    const [message] = messages as [{ deliveryId: string; event: { id: string; name: string } }];
    expect(message).toMatchObject({
      businessId: m.business.id,
      subscriptionId: m.subscription.id,
      event: { name: 'TRANSACTION_COMPLETED', businessId: m.business.id },
    });
    // Nothing is written until the sender's first attempt makes the delivery.
    expect(await getDelivery(m.business.id, message.deliveryId, true)).toBeUndefined();
  });

  it('announces a payment held in escrow as ESCROW_HELD, and a transfer between stores from its insert', async () => {
    const m = await subscribedMerchant([]);
    const request = await paidRequest(m, { escrow: true });
    await consume(`PAYREQ#${request.id}`);
    expect((await received('webhooks')).map((message) => (message.event as { id: string }).id)).toEqual([
      `ESCROW_HELD:${request.escrow?.id}`,
    ]);

    const annexe = await createStore({ businessId: m.business.id, name: 'Annexe' });
    await creditStore(m.store.id, 20_000);
    const transfer = await createTransferFor(
      m.caller,
      createTransferBody.parse({
        storeId: m.store.id,
        amountCents: 10_000,
        currency: 'XOF',
        paymentMethod: 'svc',
        destinationStoreId: annexe.id,
      }),
      baseUrl,
    );
    await consume(`BIZ#${m.business.id}`);
    expect(await received('webhooks')).toEqual([
      expect.objectContaining({
        event: expect.objectContaining({
          id: `TRANSACTION_COMPLETED:${transfer.transactionId}`,
          body: expect.objectContaining({ transactionType: 'transfer', status: 'success' }),
        }),
      }),
    ]);
  });

  it('announces nothing for a request refused at once, to a business without a subscription, or to one made after the event', async () => {
    const m = await subscribedMerchant();
    const refused = await startedRequest(m);
    await failAtOnce(refused, 'provider_refused');
    await consume(`PAYREQ#${refused.id}`);

    const unsubscribed = await merchant();
    const paid = await paidRequest(unsubscribed);
    await consume(`PAYREQ#${paid.id}`);

    const late = await merchant();
    const earlier = await paidRequest(late);
    await saveSubscription(
      { businessId: late.business.id, url: 'https://hooks.shop.example/pps', name: 'Shop', events: [] },
      { replace: true },
    );
    await consume(`PAYREQ#${earlier.id}`);
    expect(await received('webhooks')).toEqual([]);
  });

  it('queues a recorded SMS for the sender once, and two copies of its message send one text', async () => {
    const m = await merchant();
    await creditSmsBalance(m.business.id, 5);
    const message = await sendMessageFor(m.caller, {
      channel: 'sms',
      to: '+2250700000001',
      body: 'Merci pour votre achat',
      reference: randomUUID(),
    });
    // Recording it queued nothing: its stream record does.
    expect(await received('sms')).toEqual([]);
    const stream = await streamEventOf(`BIZ#${m.business.id}`);
    await handler(stream, {} as never);
    // A batch handed again (its first try failed after the send) queues it again.
    await handler(stream, {} as never);
    const copies = await received('sms');
    expect(copies).toEqual([
      { businessId: m.business.id, messageId: message.id },
      { businessId: m.business.id, messageId: message.id },
    ]);
    const records = copies.map((body, index) => ({
      messageId: `copy-${index}`,
      receiptHandle: `copy-${index}`,
      body: JSON.stringify(body),
      attributes: { ApproximateReceiveCount: '1' } as never,
      messageAttributes: {},
      md5OfBody: '',
      eventSource: 'aws:sqs',
      eventSourceARN: 'arn:aws:sqs:eu-west-1:000000000000:sms',
      awsRegion: 'eu-west-1',
    }));
    // Both copies in one batch, handled at once: the one that finds the message claimed comes back later.
    const answer = (await sendSms({ Records: records }, {} as never)) as { batchItemFailures: unknown[] };
    expect(answer.batchItemFailures.length).toBeLessThanOrEqual(1);
    expect(await getMessage(m.business.id, message.id, true)).toMatchObject({ status: 'sent' });
    // The sandbox gateway reports each message it takes: this one once.
    expect(await received('smsEvents')).toHaveLength(1);
  });
});

describe("the local host's reading of the stream", () => {
  const pollerFor = (positionFile: string, calls: { count: number }) =>
    pollTableStream({
      dynamodb: new DynamoDBClient({}),
      streams: new DynamoDBStreamsClient({ endpoint: process.env.AWS_ENDPOINT_URL_DYNAMODB }),
      tableName: tableName(),
      functionName: 'dispatchTableChanges',
      batchSize: 100,
      idleMs: 50,
      positionFile,
      // The first batch that reaches the function fails whole, as a throttled call would.
      handler: async (event, context) => {
        calls.count++;
        if (calls.count === 1) throw new Error('throttled');
        return handler(event, context);
      },
    });

  const until = async (check: () => Promise<boolean>, ms = 20_000) => {
    const deadline = Date.now() + ms;
    while (!(await check()) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 100));
    return check();
  };

  it('tries a failed batch again, and after a restart goes on from the record after the last it handled', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'stream-position-'));
    const positionFile = join(folder, 'position.json');
    const m = await subscribedMerchant();
    // The poller reads the file's whole table from its start: only this merchant's payments count.
    const paymentsOf = (messages: Record<string, unknown>[]) =>
      messages
        .map(
          (message) => message.event as { name: string; businessId: string; body: Record<string, unknown> },
        )
        .filter((event) => event.businessId === m.business.id && event.name === 'TRANSACTION_COMPLETED')
        .map((event) => (event.body.transactionDetails as { id: string }).id);
    const webhooksFor = async (requestId: string) =>
      paymentsOf(await received('webhooks')).filter((id) => id === requestId);
    try {
      const calls = { count: 0 };
      let poller = pollerFor(positionFile, calls);
      const first = await paidRequest(m);
      const queued: string[] = [];
      expect(
        await until(async () => {
          queued.push(...(await webhooksFor(first.id)));
          return queued.length > 0;
        }),
      ).toBe(true);
      expect(calls.count).toBeGreaterThan(1);
      await poller.stop();

      // Paid while the host is stopped: its change waits in the stream.
      const second = await paidRequest(m);
      poller = pollerFor(positionFile, { count: 1 });
      const after: string[] = [];
      expect(
        await until(async () => {
          after.push(...paymentsOf(await received('webhooks')));
          return after.length > 0;
        }),
      ).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 500));
      after.push(...paymentsOf(await received('webhooks')));
      await poller.stop();
      // The second payment's webhook, and not the first's again.
      expect(after).toEqual([second.id]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
