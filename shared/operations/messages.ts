import { randomUUID } from 'node:crypto';
import type { ListMessagesQuery, SendMessageBody } from '#shared/api/messages.ts';
import {
  createMessage,
  creditSms,
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

/** What the `sms` queue carries: the message to send, found by its key. */
export interface SmsQueueMessage {
  businessId: string;
  messageId: string;
}

/**
 * Sends an SMS for the caller's business: its segments are taken from the business's balance as
 * it is recorded (422 insufficient_sms_balance otherwise, nothing recorded), then the sender
 * worker gets it through the `sms` queue, where the table's stream puts it
 * (shared/events/stream-jobs.ts).
 */
export async function sendMessageFor(caller: Caller, body: SendMessageBody): Promise<Message> {
  return record({
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
  return record({
    businessId: platformBusinessId,
    to,
    body: input.body,
    reference: input.reference ?? randomUUID(),
    charged: false,
  });
}

async function record(input: {
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
  // The table's stream queues it for the sender (queueRecordedMessage).
  await createMessage(message);
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
