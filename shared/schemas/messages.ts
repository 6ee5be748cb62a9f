import { coerce, enum as enumOf, object, string, uuid } from 'zod';
import { type Message, type MessageAccount, messageStatuses } from '#shared/data/message.ts';
import { phoneNumber } from '#shared/schemas/phone-number.ts';

/** Six parts of 153 GSM-7 characters: the longest text a message may carry. */
export const maxBodyCharacters = 918;

export const sendMessageBody = object({
  // Only SMS for now; another channel is refused by name (rule `in`), not ignored.
  channel: enumOf(['sms']),
  to: phoneNumber('to'),
  // Characters as people count them (an emoji is one), not UTF-16 units.
  body: string()
    .min(1)
    .refine((body) => [...body].length <= maxBodyCharacters, {
      params: { rule: 'max' },
      message: `The body field must not be greater than ${maxBodyCharacters} characters.`,
    }),
  reference: string().min(1).max(100),
});

export type SendMessageBody = ReturnType<typeof sendMessageBody.parse>;

export const messagePathParams = object({ id: uuid() });

export const listMessagesQuery = object({
  status: enumOf(messageStatuses).optional(),
  page: coerce.number().int().min(1).default(1),
  limit: coerce.number().int().min(1).max(100).default(100),
});

export type ListMessagesQuery = ReturnType<typeof listMessagesQuery.parse>;

/** The Message of the interface, with what it costs (`segments`). */
export function messageResponse(message: Message) {
  return {
    id: message.id,
    businessId: message.businessId,
    channel: message.channel,
    to: message.to,
    body: message.body,
    reference: message.reference,
    status: message.status,
    failedReason: message.failedReason,
    segments: message.segments,
    createdAt: message.createdAt,
  };
}

export function messageAccountResponse(account: MessageAccount) {
  return {
    id: account.id,
    businessId: account.businessId,
    smsBalance: account.smsBalance,
    whatsappBalance: account.whatsappBalance,
    createdAt: account.createdAt,
  };
}
