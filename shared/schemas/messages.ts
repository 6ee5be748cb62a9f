import {
  array,
  coerce,
  enum as enumOf,
  int,
  literal,
  nullable,
  object,
  type output,
  string,
  uuid,
} from 'zod';
import { type Message, type MessageAccount, messageStatuses } from '#shared/data/message.ts';
import { instant } from '#shared/schemas/common.ts';
import type { RouteContracts } from '#shared/schemas/contract.ts';
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
}).meta({
  examples: [
    {
      channel: 'sms',
      to: '+2250700000001',
      body: 'Boutique Awa : votre commande 2042 est prête, retrait au Plateau.',
      reference: 'sms-commande-2042',
    },
  ],
});

export type SendMessageBody = ReturnType<typeof sendMessageBody.parse>;

export const messagePathParams = object({ id: uuid() });

export const listMessagesQuery = object({
  status: enumOf(messageStatuses).optional(),
  page: coerce.number().int().min(1).default(1),
  limit: coerce.number().int().min(1).max(100).default(100),
});

export type ListMessagesQuery = ReturnType<typeof listMessagesQuery.parse>;

export const messageSchema = object({
  id: uuid(),
  businessId: string(),
  channel: literal('sms'),
  to: string().meta({ description: 'International form, `+` and digits.' }),
  body: string(),
  reference: string(),
  status: enumOf(messageStatuses),
  failedReason: nullable(string()).meta({ description: 'Why it ended in `failed`.' }),
  segments: int().meta({ description: 'The SMS parts it takes, taken from the SMS balance.' }),
  createdAt: instant,
}).meta({
  id: 'Message',
  examples: [
    {
      id: '2b7c9e1a-5d3f-4e6a-8b9c-0d1e2f3a4b5c',
      businessId: '0f1e2d3c-4b5a-4968-8776-655443322110',
      channel: 'sms',
      to: '+2250700000001',
      body: 'Boutique Awa : votre commande 2042 est prête, retrait au Plateau.',
      reference: 'sms-commande-2042',
      status: 'delivered',
      failedReason: null,
      segments: 1,
      createdAt: '2026-11-20T16:45:12.000Z',
    },
  ],
});

export type MessageResponse = output<typeof messageSchema>;

export const messageListSchema = object({
  total: int(),
  perPage: int(),
  currentPage: int(),
  data: array(messageSchema),
}).meta({ id: 'MessageList' });

export const messageAccountSchema = object({
  id: uuid(),
  businessId: string(),
  smsBalance: int().meta({ description: 'SMS segments left to send.' }),
  whatsappBalance: int(),
  createdAt: instant,
}).meta({
  id: 'MessageAccount',
  examples: [
    {
      id: '3c4d5e6f-7a8b-4c9d-8e0f-1a2b3c4d5e6f',
      businessId: '0f1e2d3c-4b5a-4968-8776-655443322110',
      smsBalance: 480,
      whatsappBalance: 0,
      createdAt: '2026-11-02T09:15:00.000Z',
    },
  ],
});

export type MessageAccountResponse = output<typeof messageAccountSchema>;

/** The Message of the interface, with what it costs (`segments`). */
export function messageResponse(message: Message): MessageResponse {
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

export function messageAccountResponse(account: MessageAccount): MessageAccountResponse {
  return {
    id: account.id,
    businessId: account.businessId,
    smsBalance: account.smsBalance,
    whatsappBalance: account.whatsappBalance,
    createdAt: account.createdAt,
  };
}

export const messageContracts = {
  sendMessage: {
    tag: 'Messages',
    summary: 'Send an SMS',
    description:
      'Takes the message’s segments from the SMS balance in the same write that records it, then hands ' +
      'it to the carrier; its `status` follows (`sent`, `delivered`, or `failed` with its segments given back).',
    body: sendMessageBody,
    response: messageSchema,
    responseDescription: 'The message, `pending`.',
    idempotent: true,
    errors: ['message_exists_with_reference', 'insufficient_sms_balance'],
  },
  listMessages: {
    tag: 'Messages',
    summary: 'List the messages',
    description: 'Newest first.',
    query: listMessagesQuery,
    response: messageListSchema,
    responseDescription: 'One page of the list.',
  },
  getMessageAccount: {
    tag: 'Messages',
    summary: 'Get the message account',
    description: 'The business’s balances of messages to send; created with zero balances on first read.',
    response: messageAccountSchema,
    responseDescription: 'The account.',
  },
  getMessage: {
    tag: 'Messages',
    summary: 'Get a message',
    params: messagePathParams,
    response: messageSchema,
    responseDescription: 'The message as it is now.',
    errors: ['message_not_found'],
  },
} as const satisfies RouteContracts;
