import { createHmac, randomUUID } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { localQueueUrl } from '#infra/local/sqs.ts';
import { deadLetterQueueName } from '#infra/naming.ts';
import { verifyWebhookSignature } from '#shared/webhooks/verify-signature.ts';
import { apiClient, type Body, type Merchant, newMerchant, setWebhook } from '#test/support/api-client.ts';
import { admin } from '#test/support/local-host.ts';
import { redirectRequestBody } from '#test/support/payment-request-body.ts';
import {
  type ReceiverBehaviour,
  startWebhookReceiver,
  type WebhookReceiver,
} from '#test/support/webhook-receiver.ts';

// The host runs with the shortened timings of test/support/local-host-global-setup.ts: a receiver
// has 1.5 s to answer, and retries come 1 s, 5 s and 25 s after the failures before them.
const timeoutMs = 1_500;

const { config, dataDir } = inject('localHost');
const call = apiClient(config.baseUrl);
const receivers: WebhookReceiver[] = [];

afterAll(async () => {
  await Promise.all(receivers.map((receiver) => receiver.close()));
});

interface Subscribed {
  merchant: Merchant;
  receiver: WebhookReceiver;
  subscriptionId: string;
  secret: string;
}

/** A merchant of its own whose webhooks go to a receiver of its own, subscribed by the operator. */
async function subscribedMerchant(
  behaviour?: ReceiverBehaviour,
  checkAgainstReference = true,
): Promise<Subscribed> {
  const merchant = await newMerchant(dataDir, 'Boutique Webhooks');
  const receiver = await startWebhookReceiver(behaviour, checkAgainstReference);
  receivers.push(receiver);
  const { subscriptionId, secret } = await setWebhook(dataDir, merchant.businessId, receiver.url);
  return { merchant, receiver, subscriptionId: subscriptionId as string, secret: secret as string };
}

/** A redirect payment, paid by the sandbox's success number: it completes before this answers. */
async function completedPayment(merchant: Merchant): Promise<Body> {
  const created = await call(
    'POST',
    '/partner_api/payment_requests',
    merchant.headers,
    redirectRequestBody(merchant.storeId, {
      amountCents: 150_000,
      data: { successUrl: 'myapp://paid', errorUrl: 'https://shop.example/failed' },
    }),
  );
  expect(created.status).toBe(200);
  const approved = await call(
    'POST',
    `/sandbox/payment_requests/${created.body.id}/approve`,
    merchant.headers,
    { payerPhone: '+2250700000001' },
  );
  expect(approved.body.status).toBe('success');
  return approved.body;
}

const deliveries = async (merchant: Merchant, query = '') => {
  const answer = await call('GET', `/partner_api/webhook_deliveries${query}`, merchant.headers);
  expect(answer.status).toBe(200);
  return answer.body;
};

async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await check();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`not so after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The transaction body of the spec (§6), with the types it gives each field. */
function expectSpecTransactionBody(body: Body) {
  const money = { amount: expect.any(Number), currency: expect.any(String) };
  expect(body).toEqual(
    expect.objectContaining({
      id: expect.any(String),
      amount: money,
      fees: money,
      status: expect.stringMatching(/^(success|pending|error)$/),
      counterpartLabel: expect.any(String),
      counterpartIdentifier: expect.any(String),
      paymentMethod: expect.any(String),
      transactionType: expect.any(String),
      businessName: expect.any(String),
      storeName: expect.any(String),
      description: expect.any(String),
      executedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
      transactionDetails: expect.any(Object),
    }),
  );
  expect(Number.isInteger(body.amount.amount) && Number.isInteger(body.fees.amount)).toBe(true);
}

describe.concurrent('webhooks, delivered to a real receiver', () => {
  it('deliver a completed payment once, signed, with the flat transaction body of the spec', async () => {
    const { merchant, receiver, secret } = await subscribedMerchant();
    const payment = await completedPayment(merchant);
    const [webhook] = await receiver.waitFor(1, 10_000);
    if (!webhook) throw new Error('no webhook');

    expect(webhook.headers['content-type']).toBe('application/json');
    expect(webhook.headers['svc-event']).toBe('TRANSACTION_COMPLETED');
    expect(webhook.headers['svc-webhook-version']).toBe('1.0.0');
    const signature = webhook.headers['svc-signature'] as string;
    expect(signature).toMatch(/^[0-9a-f]{64}$/);
    expect(verifyWebhookSignature(webhook.body, signature, secret)).toBe(true);
    expect(createHmac('sha256', secret).update(webhook.body).digest('hex')).toBe(signature);
    expect(verifyWebhookSignature(webhook.body, signature, `${secret}x`)).toBe(false);

    const text = webhook.body.toString('utf8');
    const body = JSON.parse(text);
    // Compact, so a receiver that encodes the parsed body again gets the same bytes.
    expect(JSON.stringify(body)).toBe(text);
    expectSpecTransactionBody(body);
    expect(body).toMatchObject({
      id: payment.transaction.id,
      amount: { amount: 150_000, currency: 'XOF' },
      fees: payment.transaction.fees,
      status: 'success',
      counterpartIdentifier: '+2250700000001',
      paymentMethod: 'wave',
      transactionType: 'payment',
      businessName: expect.stringMatching(/^Boutique Webhooks /),
      storeName: 'Boutique Webhooks Plateau',
      executedAt: payment.transaction.executedAt,
      transactionDetails: { id: payment.id, reference: payment.reference },
    });

    // Once: nothing more comes, and the log shows one delivered attempt.
    await settle(2_000);
    expect(receiver.received).toHaveLength(1);
    const log = await deliveries(merchant, '?status=delivered');
    expect(log).toMatchObject({ total: 1, perPage: 100, currentPage: 1 });
    expect(log.data[0]).toEqual({
      id: expect.any(String),
      eventId: `TRANSACTION_COMPLETED:${payment.transaction.id}`,
      eventName: 'TRANSACTION_COMPLETED',
      url: receiver.url,
      status: 'delivered',
      attempts: [
        {
          at: expect.any(String),
          status: 200,
          error: null,
          durationMs: expect.any(Number),
          responseExcerpt: 'ok',
        },
      ],
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(JSON.stringify(log)).not.toContain(secret);
    expect((await deliveries(merchant, '?status=failed')).total).toBe(0);
  });

  it('retry a receiver that fails twice: exactly 3 attempts, further apart each time, the same body', async () => {
    // The receiver dedupes as the docs ask: a copy of the message handled at the same moment may
    // POST the same attempt twice (docs/operations/webhook-attempts.md), and is answered as the
    // attempt it copies. Attempts are what the schedule spaces, at least a second apart.
    const attemptsOf = <Arrival extends { at: number }>(arrivals: readonly Arrival[]) =>
      arrivals.filter((arrival, index) => index === 0 || arrival.at - (arrivals[index - 1]?.at ?? 0) > 500);
    let attemptsSeen = 0;
    let lastArrival = 0;
    const { merchant, receiver } = await subscribedMerchant(() => {
      if (Date.now() - lastArrival > 500) attemptsSeen++;
      lastArrival = Date.now();
      return attemptsSeen <= 2 ? 503 : 200;
    });
    await completedPayment(merchant);
    await eventually(async () => (attemptsOf(receiver.received).length >= 3 ? true : undefined), 20_000);
    await settle(3_000);
    const attempts = attemptsOf(receiver.received);
    expect(attempts).toHaveLength(3);
    const [first, second, third] = attempts;
    if (!first || !second || !third) throw new Error('missing attempts');
    for (const copy of receiver.received) expect(copy.body.equals(first.body)).toBe(true);

    const firstGap = second.at - first.at;
    const secondGap = third.at - second.at;
    expect(firstGap).toBeGreaterThanOrEqual(900);
    expect(secondGap).toBeGreaterThanOrEqual(4_900);
    expect(secondGap).toBeGreaterThan(firstGap);
    expect(second.body.equals(first.body) && third.body.equals(first.body)).toBe(true);
    expect(third.headers['svc-signature']).toBe(first.headers['svc-signature']);

    const [delivery] = (await deliveries(merchant)).data;
    expect(delivery.status).toBe('delivered');
    expect(delivery.attempts.map((attempt: Body) => attempt.status)).toEqual([503, 503, 200]);
    expect(delivery.attempts[0].responseExcerpt).toBe('try again later');
  });

  it('give up on a receiver that always fails after 4 attempts, counted in the delivery: the delivery is failed, its message leaves the queue without being parked', {
    timeout: 90_000,
  }, async () => {
    const { merchant, receiver } = await subscribedMerchant(() => 500);
    await completedPayment(merchant);
    await receiver.waitFor(4, 45_000);

    const failed = await eventually(async () => {
      const log = await deliveries(merchant, '?status=failed');
      return log.total === 1 ? log.data[0] : undefined;
    }, 10_000);
    expect(failed.attempts.map((attempt: Body) => attempt.status)).toEqual([500, 500, 500, 500]);
    expect(failed.failureReason).toMatch(/^No 2xx answer after 4 attempts/);

    // The dead-letter queue is the redrive's safety net, for messages whose receives ran out
    // before their attempts did: a delivery that used its attempts is over, and its message is gone.
    const sqs = new SQSClient({
      endpoint: config.endpoints.sqs,
      region: 'eu-west-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    try {
      await settle(2_000);
      for (const queue of ['webhooks', deadLetterQueueName('webhooks')]) {
        // Built from the host's endpoint, as the service builds its queue URLs: the emulator's own
        // answer names a host of its own (sqs.<region>.localhost) that need not resolve here.
        const { Messages = [] } = await sqs.send(
          new ReceiveMessageCommand({
            QueueUrl: localQueueUrl(config.endpoints.sqs, queue),
            MaxNumberOfMessages: 10,
            VisibilityTimeout: 0,
          }),
        );
        expect(
          Messages.filter((message) => JSON.parse(message.Body as string).deliveryId === failed.id),
        ).toEqual([]);
      }
    } finally {
      sqs.destroy();
    }
    expect(receiver.received).toHaveLength(4);
  });

  it('cut a receiver that hangs at the timeout, and try it again', async () => {
    const { merchant, receiver } = await subscribedMerchant((attempt) => (attempt === 1 ? 'hang' : 200));
    await completedPayment(merchant);
    await receiver.waitFor(2, 15_000);
    const delivery = await eventually(async () => {
      const [found] = (await deliveries(merchant, '?status=delivered')).data;
      return found;
    }, 5_000);
    const [cut, retried] = delivery.attempts;
    expect(cut).toMatchObject({ status: null, error: `No answer within ${timeoutMs} ms` });
    expect(cut.durationMs).toBeGreaterThanOrEqual(timeoutMs - 50);
    expect(cut.durationMs).toBeLessThan(timeoutMs + 1_000);
    expect(retried.status).toBe(200);
  });

  it('re-send a delivery as a new one with a fresh log and the same body, to its own business only', async () => {
    const { merchant, receiver } = await subscribedMerchant();
    await completedPayment(merchant);
    const [original] = await receiver.waitFor(1, 10_000);
    const [delivered] = (
      await eventually(async () => {
        const log = await deliveries(merchant, '?status=delivered');
        return log.total === 1 ? log : undefined;
      }, 5_000)
    ).data;

    const other = await newMerchant(dataDir, 'Autre Boutique');
    const foreign = await call(
      'POST',
      `/partner_api/webhook_deliveries/${delivered.id}/resend`,
      other.headers,
    );
    expect(foreign).toEqual({
      status: 404,
      body: { id: 'webhook_delivery_not_found', message: 'Webhook delivery not found', extras: null },
    });

    const resent = await call(
      'POST',
      `/partner_api/webhook_deliveries/${delivered.id}/resend`,
      merchant.headers,
    );
    expect(resent.status).toBe(200);
    expect(resent.body).toMatchObject({
      eventId: delivered.eventId,
      eventName: 'TRANSACTION_COMPLETED',
      url: receiver.url,
      resendOf: delivered.id,
      attempts: [],
    });
    expect(resent.body.id).not.toBe(delivered.id);

    const [, again] = await receiver.waitFor(2, 10_000);
    expect(again?.body.equals(original?.body as Buffer)).toBe(true);
    const log = await eventually(async () => {
      const found = await deliveries(merchant, '?status=delivered');
      return found.total === 2 ? found : undefined;
    }, 5_000);
    // Newest first: the re-send, then the original with its log unchanged.
    expect(log.data.map((delivery: Body) => delivery.id)).toEqual([resent.body.id, delivered.id]);
    expect(log.data[0].attempts).toHaveLength(1);
    expect(log.data[1].attempts).toEqual(delivered.attempts);
  });

  it('send the event of a change whose function stopped right after committing it: the stream carries it', async () => {
    const { merchant, receiver, secret } = await subscribedMerchant();
    // What a function that made a transfer between two stores leaves if it stops at its commit: the
    // transfer, ended already, and nothing sent. Written straight into the table.
    const id = randomUUID();
    const transactionId = randomUUID();
    const at = new Date().toISOString();
    const table = DynamoDBDocumentClient.from(
      new DynamoDBClient({
        endpoint: config.endpoints.dynamodb,
        region: 'eu-west-1',
        credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      }),
    );
    try {
      await table.send(
        new PutCommand({
          TableName: config.tableName,
          Item: {
            pk: `BIZ#${merchant.businessId}`,
            sk: `TRANSFER#${id}`,
            entity: 'transfer',
            id,
            businessId: merchant.businessId,
            storeId: merchant.storeId,
            storeName: 'Boutique Webhooks',
            contactId: '',
            amountCents: 10_000,
            feeCents: 0,
            currency: 'XOF',
            status: 'success',
            errorReason: null,
            paymentMethod: 'svc',
            beneficiary: 'Dépôt',
            beneficiaryIdentifier: { storeId: merchant.storeId },
            description: 'Réassort',
            reference: id,
            referenceClaimed: false,
            transactionId,
            createdAt: at,
            updatedAt: at,
          },
        }),
      );
    } finally {
      table.destroy();
    }
    const [webhook] = await receiver.waitFor(1, 15_000);
    expect(JSON.parse(webhook?.body.toString('utf8') ?? '')).toMatchObject({
      id: transactionId,
      status: 'success',
      transactionType: 'transfer',
      transactionDetails: { id, reference: id },
    });
    expect(
      verifyWebhookSignature(webhook?.body ?? '', webhook?.headers['svc-signature'] as string, secret),
    ).toBe(true);
    await settle(2_000);
    expect(receiver.received).toHaveLength(1);
  });

  it('stop once the subscription is deleted: a delivery being retried ends failed, new events go nowhere', async () => {
    const { merchant, receiver, subscriptionId } = await subscribedMerchant(() => 503);
    // Deleted the way a merchant's service provider deletes it.
    const { businessId: providerId } = await admin(
      dataDir,
      'create-business',
      '--name',
      `Intégrateur ${randomUUID().slice(0, 6)}`,
      '--service-provider',
    );
    const { keyId, key } = await admin(dataDir, 'create-key', '--business', providerId as string);
    await admin(dataDir, 'link', '--provider', providerId as string, '--merchant', merchant.businessId);

    await completedPayment(merchant);
    await receiver.waitFor(1, 10_000);
    const deleted = await call(
      'DELETE',
      `/partner_api/service_providers/business_webhook_subscriptions/${subscriptionId}?merchantBusinessId=${merchant.businessId}`,
      { 'X-API-KEY-ID': keyId as string, 'X-API-KEY': key as string },
    );
    expect(deleted.status).toBe(200);

    const failed = await eventually(async () => {
      const log = await deliveries(merchant, '?status=failed');
      return log.total === 1 ? log.data[0] : undefined;
    }, 10_000);
    expect(failed.failureReason).toMatch(/subscription was deleted/);
    expect(failed.attempts).toHaveLength(1);

    await completedPayment(merchant);
    await settle(3_000);
    expect(receiver.received).toHaveLength(1);
    expect((await deliveries(merchant)).total).toBe(1);
  });
});

// After the concurrent ones, so it does not add a merchant and a receiver to their contention.
describe("webhooks from the table's stream", () => {
  it("send a completed payment whose function stopped before dispatching it, from the table's stream", async () => {
    const { merchant, receiver, secret } = await subscribedMerchant();
    const created = await call(
      'POST',
      '/partner_api/payment_requests',
      merchant.headers,
      redirectRequestBody(merchant.storeId, {
        amountCents: 90_000,
        data: { successUrl: 'myapp://paid', errorUrl: 'https://shop.example/failed' },
      }),
    );
    expect(created.status).toBe(200);
    // What a function stopped right after committing a completion leaves: the completed request,
    // no delivery. (The ledger's part of that transaction plays no role in the webhook.)
    const transaction = {
      id: randomUUID(),
      amount: { amount: 90_000, currency: 'XOF' },
      fees: { amount: 900, currency: 'XOF' },
      status: 'success',
      counterpartLabel: 'Awa K.',
      counterpartIdentifier: '+2250700000001',
      description: `Payment ${created.body.reference}`,
      executedAt: new Date().toISOString().slice(0, 19).replace('T', ' '),
    };
    const table = DynamoDBDocumentClient.from(
      new DynamoDBClient({
        endpoint: config.endpoints.dynamodb,
        region: 'eu-west-1',
        credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      }),
    );
    try {
      await table.send(
        new UpdateCommand({
          TableName: config.tableName,
          Key: { pk: `PAYREQ#${created.body.id}`, sk: 'PAYREQ' },
          UpdateExpression: 'SET #status = :success, #transaction = :transaction, updatedAt = :now',
          ConditionExpression: '#status = :pending',
          ExpressionAttributeNames: { '#status': 'status', '#transaction': 'transaction' },
          ExpressionAttributeValues: {
            ':success': 'success',
            ':pending': 'pending',
            ':transaction': transaction,
            ':now': new Date().toISOString(),
          },
        }),
      );
    } finally {
      table.destroy();
    }
    // The host reads the stream as Lambda's event source mapping does: within a second or so.
    const [webhook] = await receiver.waitFor(1, 10_000);
    expect(
      verifyWebhookSignature(webhook?.body ?? '', webhook?.headers['svc-signature'] as string, secret),
    ).toBe(true);
    const body = JSON.parse(webhook?.body.toString('utf8') ?? '');
    expectSpecTransactionBody(body);
    expect(body).toMatchObject({
      id: transaction.id,
      amount: transaction.amount,
      status: 'success',
      transactionType: 'payment',
      storeName: 'Boutique Webhooks Plateau',
      transactionDetails: { id: created.body.id, reference: created.body.reference },
    });
    await settle(2_000);
    expect(receiver.received).toHaveLength(1);
  });
});
