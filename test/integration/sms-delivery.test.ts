import { randomUUID } from 'node:crypto';
import {
  PinpointSMSVoiceV2Client,
  SendTextMessageCommand,
  ValidationException,
} from '@aws-sdk/client-pinpoint-sms-voice-v2';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  claimForSending,
  createMessage,
  creditSms,
  getMessage,
  getOrCreateAccount,
  type Message,
  sendingLeaseSeconds,
} from '#shared/data/message.ts';
import { SmsBeingSent } from '#shared/errors/messages.ts';
import {
  applySmsDeliveryEvent,
  maxSendAttempts,
  parseSmsEventMessage,
  sendQueuedSms,
} from '#shared/operations/sms-delivery.ts';
import { pendingSms } from '#test/support/fixtures.ts';

// The production path: the AWS gateway, whose service cannot run here, answers through a mock;
// the messages and balances are real, on DynamoDB Local.
delete process.env.SANDBOX;
const smsVoice = mockClient(PinpointSMSVoiceV2Client);

beforeEach(() => {
  smsVoice.reset();
});

async function pendingMessage(segments: number): Promise<Message> {
  const businessId = randomUUID();
  await creditSms(businessId, 10, 'topup');
  const message = pendingSms(businessId, segments);
  await createMessage(message);
  return message;
}

const queued = (message: Message) => ({ businessId: message.businessId, messageId: message.id });
const stored = (message: Message) => getMessage(message.businessId, message.id, true);
const balanceOf = async (message: Message) => (await getOrCreateAccount(message.businessId)).smsBalance;

/** An event as the configuration set's SNS topic wraps it, when raw delivery is off. */
const snsNotification = (event: unknown) =>
  JSON.stringify({ Type: 'Notification', MessageId: randomUUID(), Message: JSON.stringify(event) });

describe('the SMS sender on production', () => {
  it('hands the message to SendTextMessage and records it sent; the delivery event makes it delivered', async () => {
    const message = await pendingMessage(2);
    smsVoice.on(SendTextMessageCommand).resolves({ MessageId: 'aws-1' });
    await sendQueuedSms(queued(message), 1);
    expect(await stored(message)).toMatchObject({ status: 'sent', providerMessageId: 'aws-1' });
    const event = {
      eventType: 'TEXT_DELIVERED',
      eventVersion: '1.0',
      eventTimestamp: Date.now(),
      isFinal: true,
      messageId: 'aws-1',
      destinationPhoneNumber: message.to,
      messageStatus: 'DELIVERED',
      context: { businessId: message.businessId, messageId: message.id },
    };
    await applySmsDeliveryEvent(parseSmsEventMessage(snsNotification(event)));
    expect(await stored(message)).toMatchObject({ status: 'delivered', failedReason: null });
    // A duplicate queue message sends nothing more.
    await sendQueuedSms(queued(message), 2);
    expect(smsVoice.commandCalls(SendTextMessageCommand)).toHaveLength(1);
    expect(await balanceOf(message)).toBe(8);
  });

  it('fails a refused number and gives the segments back once', async () => {
    const message = await pendingMessage(3);
    smsVoice
      .on(SendTextMessageCommand)
      .rejects(new ValidationException({ message: 'bad number', $metadata: {}, Reason: 'CANNOT_PARSE' }));
    await sendQueuedSms(queued(message), 1);
    await sendQueuedSms(queued(message), 2);
    expect(await stored(message)).toMatchObject({ status: 'failed', failedReason: 'invalid_number' });
    expect(await balanceOf(message)).toBe(10);
  });

  it('retries a passing failure, then fails the message as provider_unavailable and refunds it', async () => {
    const message = await pendingMessage(1);
    smsVoice
      .on(SendTextMessageCommand)
      .rejects(Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException' }));
    for (let attempt = 1; attempt < maxSendAttempts; attempt++) {
      await expect(sendQueuedSms(queued(message), attempt)).rejects.toThrow('Rate exceeded');
      expect((await stored(message))?.status).toBe('pending');
      expect(await balanceOf(message)).toBe(9);
    }
    await sendQueuedSms(queued(message), maxSendAttempts);
    expect(await stored(message)).toMatchObject({ status: 'failed', failedReason: 'provider_unavailable' });
    expect(await balanceOf(message)).toBe(10);
  });

  it('keeps the segments when the carrier fails a message it took', async () => {
    const message = await pendingMessage(1);
    smsVoice.on(SendTextMessageCommand).resolves({ MessageId: 'aws-2' });
    await sendQueuedSms(queued(message), 1);
    await applySmsDeliveryEvent({
      eventType: 'TEXT_TTL_EXPIRED',
      isFinal: true,
      messageId: 'aws-2',
      context: { businessId: message.businessId, messageId: message.id },
    });
    expect(await stored(message)).toMatchObject({ status: 'failed', failedReason: 'expired' });
    expect(await balanceOf(message)).toBe(9);
  });

  it('hands a message handled by several copies of its queue message at once to the gateway once', async () => {
    const message = await pendingMessage(1);
    smsVoice.on(SendTextMessageCommand).callsFake(async () => {
      // A slow gateway, on purpose: the copies must overlap while it answers.
      await new Promise((resolve) => setTimeout(resolve, 100));
      return { MessageId: 'aws-once' };
    });
    const results = await Promise.allSettled(
      Array.from({ length: 4 }, () => sendQueuedSms(queued(message), 1)),
    );
    expect(smsVoice.commandCalls(SendTextMessageCommand)).toHaveLength(1);
    expect(await stored(message)).toMatchObject({ status: 'sent', providerMessageId: 'aws-once' });
    // The copies that found it claimed went back to the queue, to find it sent next time.
    for (const result of results)
      if (result.status === 'rejected') expect(result.reason).toBeInstanceOf(SmsBeingSent);
    expect(results.filter((result) => result.status === 'fulfilled')).not.toHaveLength(0);
    await sendQueuedSms(queued(message), 2);
    expect(smsVoice.commandCalls(SendTextMessageCommand)).toHaveLength(1);
    expect(await balanceOf(message)).toBe(9);
  });

  it('leaves a live claim to its sender, never failing the message for it, and takes over a lapsed one', async () => {
    const message = await pendingMessage(2);
    smsVoice.on(SendTextMessageCommand).resolves({ MessageId: 'aws-3' });
    // A sender claimed it and is still within its lease.
    expect(await claimForSending(message)).toBeDefined();
    await expect(sendQueuedSms(queued(message), 1)).rejects.toBeInstanceOf(SmsBeingSent);
    // On the last attempt the copy is dropped, not the message failed: the claim's holder settles it.
    await sendQueuedSms(queued(message), maxSendAttempts);
    expect(smsVoice.commandCalls(SendTextMessageCommand)).toHaveLength(0);
    expect(await stored(message)).toMatchObject({ status: 'pending', failedReason: null });
    expect(await balanceOf(message)).toBe(8);

    // A sender killed after claiming: its lease has lapsed, so the queue's retry sends the message.
    const stranded = await pendingMessage(1);
    const killedAt = new Date(Date.now() - (sendingLeaseSeconds + 1) * 1000);
    expect(await claimForSending(stranded, killedAt)).toBeDefined();
    // The claim is the sender's business: the message's public shape does not show it.
    expect(await stored(stranded)).not.toHaveProperty('sendingUntil');
    await sendQueuedSms(queued(stranded), 2);
    expect(smsVoice.commandCalls(SendTextMessageCommand)).toHaveLength(1);
    expect(await stored(stranded)).toMatchObject({ status: 'sent', providerMessageId: 'aws-3' });
  });
});
