import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { documentClient, dynamodb, tableName } from '#shared/aws/dynamodb.ts';
import { paymentReferenceKey } from '#shared/data/payment-reference.ts';
import { paymentRequestKey } from '#shared/data/payment-request.ts';
import { PaymentRequestExistsWithReference } from '#shared/errors/payment-requests.ts';
import { createPaymentRequestFor } from '#shared/operations/payment-requests.ts';
import { merchant } from '#test/support/fixtures.ts';
import { redirectRequestBody } from '#test/support/payment-request-body.ts';

process.env.SANDBOX = 'true';
const baseUrl = 'http://localhost:0';

type Merchant = Awaited<ReturnType<typeof merchant>>;

const body = (m: Merchant, reference: string) => redirectRequestBody(m.store.id, { reference });

/** Answers of the next `count` calls of the service's DynamoDB client to `command` are lost after the write. */
let losing: { command: string; left: number } | undefined;
dynamodb.middlewareStack.add(
  (next, context) => async (args) => {
    const result = await next(args);
    if (losing && losing.left > 0 && context.commandName === losing.command) {
      losing.left--;
      throw Object.assign(new Error('socket hang up'), { name: 'TimeoutError', $retryable: {} });
    }
    return result;
  },
  { step: 'finalizeRequest', name: 'loseAnswers' },
);

const readItem = async (key: { pk: string; sk: string }) =>
  (await documentClient.send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true })))
    .Item;

async function plantClaim(m: Merchant, reference: string, paymentRequestId: string, ageMs: number) {
  await documentClient.send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...paymentReferenceKey(m.business.id, reference),
        entity: 'payment_reference',
        paymentRequestId,
        claimedAt: new Date(Date.now() - ageMs).toISOString(),
      },
    }),
  );
}

describe("a payment request's reference, claimed without a transaction", () => {
  it('refuses a second request with the same reference and keeps the first', async () => {
    const m = await merchant();
    const reference = `ref-${randomUUID()}`;
    const first = await createPaymentRequestFor(m.caller, body(m, reference), baseUrl);
    await expect(createPaymentRequestFor(m.caller, body(m, reference), baseUrl)).rejects.toBeInstanceOf(
      PaymentRequestExistsWithReference,
    );
    expect((await readItem(paymentReferenceKey(m.business.id, reference)))?.paymentRequestId).toBe(first.id);
    expect((await readItem(paymentRequestKey(first.id)))?.reference).toBe(reference);
  });

  it('of two creations at once with one reference, exactly one is made', async () => {
    const m = await merchant();
    const reference = `ref-${randomUUID()}`;
    const outcomes = await Promise.allSettled(
      Array.from({ length: 6 }, () => createPaymentRequestFor(m.caller, body(m, reference), baseUrl)),
    );
    const made = outcomes.filter((o) => o.status === 'fulfilled');
    expect(made).toHaveLength(1);
    for (const o of outcomes)
      if (o.status === 'rejected') expect(o.reason).toBeInstanceOf(PaymentRequestExistsWithReference);
  });

  it('takes a retried put whose answer was lost as done, for the claim and for the request', async () => {
    const m = await merchant();
    losing = { command: 'PutItemCommand', left: 2 };
    try {
      const reference = `ref-${randomUUID()}`;
      const request = await createPaymentRequestFor(m.caller, body(m, reference), baseUrl);
      expect(losing.left).toBe(0);
      expect((await readItem(paymentRequestKey(request.id)))?.status).toBe('pending');
      expect((await readItem(paymentReferenceKey(m.business.id, reference)))?.paymentRequestId).toBe(
        request.id,
      );
    } finally {
      losing = undefined;
    }
  });

  it('takes over a claim left without its request by a creator that stopped, once it is old enough', async () => {
    const m = await merchant();
    const reference = `ref-${randomUUID()}`;
    await plantClaim(m, reference, randomUUID(), 10 * 60_000);
    const request = await createPaymentRequestFor(m.caller, body(m, reference), baseUrl);
    expect((await readItem(paymentReferenceKey(m.business.id, reference)))?.paymentRequestId).toBe(
      request.id,
    );
  });

  it('does not take over a recent claim, whose creator may still be putting its request', async () => {
    const m = await merchant();
    const reference = `ref-${randomUUID()}`;
    const holder = randomUUID();
    await plantClaim(m, reference, holder, 20_000);
    await expect(createPaymentRequestFor(m.caller, body(m, reference), baseUrl)).rejects.toBeInstanceOf(
      PaymentRequestExistsWithReference,
    );
    expect((await readItem(paymentReferenceKey(m.business.id, reference)))?.paymentRequestId).toBe(holder);
  });

  it('does not take over an old claim whose request exists', async () => {
    const m = await merchant();
    const reference = `ref-${randomUUID()}`;
    const first = await createPaymentRequestFor(m.caller, body(m, reference), baseUrl);
    await plantClaim(m, reference, first.id, 10 * 60_000);
    await expect(createPaymentRequestFor(m.caller, body(m, reference), baseUrl)).rejects.toBeInstanceOf(
      PaymentRequestExistsWithReference,
    );
  });
});
