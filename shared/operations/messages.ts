import { randomUUID } from 'node:crypto';
import type { ListMessagesQuery, SendMessageBody } from '#shared/api/messages.ts';
import { sendToQueue } from '#shared/aws/sqs.ts';
import {
  createMessage,
  creditSms,
  failBeforeCarrier,
  getMessage,
  getOrCreateAccount,
  listMessages,
  type Message,
  platformBusinessId,
} from '#shared/data/message.ts';
import type { Caller } from '#shared/domain/caller.ts';
import { normalisePhoneNumber } from '#shared/domain/phone-numbers.ts';
import { countSegments } from '#shared/domain/sms-segments.ts';
import { MessageNotFound } from '#shared/errors/messages.ts';
import { logger } from '#shared/logger.ts';

/** What the `sms` queue carries: the message to send, found by its key. */
export interface SmsQueueMessage {
  businessId: string;
  messageId: string;
}

/**
 * How long the stream's copy of a new message's queue message waits before the sender sees it:
 * past the prompt copy's first attempt, so that copy normally finds the message sent and does
 * nothing; within SQS's 15 minutes, so a message whose recording function died goes out soon.
 */
export const smsRescueDelaySeconds = 120;

/**
 * The table's stream as the outbox of SMS: a message recorded pending (its segments taken) is
 * queued again, delayed, from its stream record, so it is sent even if the function that recorded
 * it died before its own queue send. The sender's claim keeps the two copies to one text.
 */
export async function queueFromStream(message: Pick<Message, 'businessId' | 'id'>): Promise<void> {
  await sendToQueue(
    'sms',
    { businessId: message.businessId, messageId: message.id } satisfies SmsQueueMessage,
    {
      delaySeconds: smsRescueDelaySeconds,
    },
  );
}

/**
 * Sends an SMS for the caller's business: its segments are taken from the business's balance as
 * it is recorded (422 insufficient_sms_balance otherwise, nothing recorded), then the sender
 * worker gets it through the `sms` queue.
 */
export async function sendMessageFor(caller: Caller, body: SendMessageBody): Promise<Message> {
  return recordAndQueue({
    businessId: caller.businessId,
    to: body.to,
    body: body.body,
    reference: body.reference,
    charged: true,
  });
}

/**
 * An SMS on the platform's own account, charged to no business: one-time codes and other notices
 * the service sends itself. `to` may be in any form `POST /messages` takes; `reference` makes a
 * retry of the same notice a 409 instead of a second text (a fresh one is made when left out).
 */
export async function sendPlatformSms(input: {
  to: string;
  body: string;
  reference?: string;
}): Promise<Message> {
  const to = normalisePhoneNumber(input.to);
  if (!to) throw new Error(`not a phone number: ${input.to}`);
  return recordAndQueue({
    businessId: platformBusinessId,
    to,
    body: input.body,
    reference: input.reference ?? randomUUID(),
    charged: false,
  });
}

async function recordAndQueue(input: {
  businessId: string;
  to: string;
  body: string;
  reference: string;
  charged: boolean;
}): Promise<Message> {
  const now = new Date().toISOString();
  const { segments, encoding } = countSegments(input.body);
  const message: Message = {
    id: randomUUID(),
    businessId: input.businessId,
    channel: 'sms',
    to: input.to,
    body: input.body,
    reference: input.reference,
    status: 'pending',
    failedReason: null,
    segments,
    encoding,
    charged: input.charged,
    createdAt: now,
    updatedAt: now,
  };
  await createMessage(message);
  try {
    await sendToQueue('sms', {
      businessId: message.businessId,
      messageId: message.id,
    } satisfies SmsQueueMessage);
  } catch (error) {
    // Nothing would ever send it: give the segments and the reference back, so a retry can work.
    logger.error('sms could not be queued', { error: error as Error, messageId: message.id });
    await failBeforeCarrier(message, 'not_queued', { releaseReference: true });
    throw error;
  }
  return message;
}

export async function messageOf(caller: Caller, id: string): Promise<Message> {
  const message = await getMessage(caller.businessId, id);
  if (!message) throw new MessageNotFound();
  return message;
}

export async function messagesOf(caller: Caller, query: ListMessagesQuery) {
  const { total, items } = await listMessages(caller.businessId, query);
  return { total, perPage: query.limit, currentPage: query.page, data: items };
}

export const messageAccountOf = (caller: Caller) => getOrCreateAccount(caller.businessId);

/**
 * An operator's top-up of a business's SMS balance. `entryId` names the top-up: giving the same
 * one again (a retried command) adds nothing.
 */
export async function creditSmsBalance(businessId: string, segments: number, entryId: string = randomUUID()) {
  const credited = await creditSms(businessId, segments, entryId);
  const account = await getOrCreateAccount(businessId);
  return { businessId, entryId, segments, credited, smsBalance: account.smsBalance };
}
