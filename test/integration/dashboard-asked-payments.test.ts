import { randomUUID } from 'node:crypto';
import { SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureQueues } from '#infra/local/create-queues.ts';
import { startLocalSqs } from '#infra/local/sqs.ts';
import { queueUrlVariable } from '#shared/catalogue/queues.ts';
import { merchant } from '#test/support/fixtures.ts';

// The cancelled request dispatches its webhook: a local SQS of this file's own, set up before the
// modules that build the SQS client are imported.
const localSqs = await startLocalSqs();
process.env.AWS_ENDPOINT_URL_SQS = localSqs.endpoint;
for (const [name, url] of await ensureQueues(new SQSClient({}), localSqs.endpoint))
  process.env[queueUrlVariable(name)] = url;

const { creditSms, getOrCreateAccount } = await import('#shared/data/message.ts');
const { findPaymentRequest } = await import('#shared/data/payment-request.ts');
const { queryPrefix } = await import('#shared/data/query.ts');
const { InsufficientSmsBalance } = await import('#shared/errors/messages.ts');
const { askForPayment } = await import('#shared/operations/dashboard-payment-requests.ts');

beforeAll(() => {
  process.env.SANDBOX = 'true';
});
afterAll(async () => {
  await localSqs.stop();
});

describe('asking for a payment when the SMS balance runs out meanwhile', () => {
  it('refuses the SMS (nothing charged) and cancels the request it made, so no payer is sent to it', async () => {
    const m = await merchant();
    await creditSms(m.business.id, 1, 'topup');
    const member = {
      businessId: m.business.id,
      businessName: m.business.name,
      memberId: randomUUID(),
      userId: randomUUID(),
      role: 'owner' as const,
      isServiceProvider: false,
      verificationLevel: 1,
    };
    // The check reads one segment; by the send, the text is three (as if another send had spent
    // the balance meanwhile, the message's own condition is what refuses it).
    let calls = 0;
    const smsText = (_ask: unknown, url: string) =>
      ++calls === 1 ? `Payez ici : ${url}` : `${'x'.repeat(400)} ${url}`;
    await expect(
      askForPayment(
        member,
        {
          store: m.store,
          amountCents: 150_000,
          payerPhone: '+2250700000017',
          paymentMethod: 'orange',
        },
        smsText,
        { baseUrl: 'http://localhost:0', sourceIp: '127.0.0.1' },
      ),
    ).rejects.toBeInstanceOf(InsufficientSmsBalance);

    const partition = `BIZ#${m.business.id}`;
    const [claim] = await queryPrefix(partition, 'PAYREF#');
    const request = await findPaymentRequest(claim?.paymentRequestId as string, true);
    expect(request).toMatchObject({ status: 'error', errorReason: 'cancelled' });
    expect((await getOrCreateAccount(m.business.id)).smsBalance).toBe(1);
    expect(await queryPrefix(partition, 'MSG#')).toEqual([]);
    expect(await queryPrefix(partition, 'ASKED#')).toEqual([]);
    expect(
      (await queryPrefix(partition, 'AUDIT#')).filter((entry) => entry.action === 'payment_requested'),
    ).toEqual([]);
  });
});
