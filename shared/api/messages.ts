import {
  _default,
  coerce,
  enum as enumOf,
  globalRegistry,
  gte,
  int,
  literal,
  lte,
  maxLength,
  minLength,
  nullable,
  object,
  optional,
  type output,
  refine,
  string,
  uuid,
} from 'zod/mini';
import { instant, pageOf } from '#shared/api/common.ts';
import { endpointsIn } from '#shared/api/endpoint.ts';
import { phoneNumber } from '#shared/api/phone-number.ts';
import { readsTable } from '#shared/catalogue/access.ts';
import { type Message, type MessageAccount, messageStatuses } from '#shared/data/message.ts';

import { maxBodyCharacters } from '#shared/domain/sms-segments.ts';

export { maxBodyCharacters };

export const sendMessageBody = object({
  // Only SMS for now; another channel is refused by name (rule `in`), not ignored.
  channel: enumOf(['sms']),
  to: phoneNumber('to'),
  // Characters as people count them (an emoji is one), not UTF-16 units.
  body: string().check(
    minLength(1),
    refine((body) => [...body].length <= maxBodyCharacters, {
      params: { rule: 'max' },
      message: `The body field must not be greater than ${maxBodyCharacters} characters.`,
    }),
  ),
  reference: string().check(minLength(1), maxLength(100)),
}).register(globalRegistry, {
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
  status: optional(enumOf(messageStatuses)),
  page: _default(coerce.number().check(int(), gte(1)), 1),
  limit: _default(coerce.number().check(int(), gte(1), lte(100)), 100),
});

export type ListMessagesQuery = ReturnType<typeof listMessagesQuery.parse>;

export const messageSchema = object({
  id: uuid(),
  businessId: string(),
  channel: literal('sms'),
  to: string().register(globalRegistry, { description: 'International form, `+` and digits.' }),
  body: string(),
  reference: string(),
  status: enumOf(messageStatuses),
  failedReason: nullable(string()).register(globalRegistry, { description: 'Why it ended in `failed`.' }),
  segments: int().register(globalRegistry, {
    description: 'The SMS parts it takes, taken from the SMS balance.',
  }),
  createdAt: instant,
}).register(globalRegistry, {
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
  ...pageOf(messageSchema),
}).register(globalRegistry, { id: 'MessageList' });

export const messageAccountSchema = object({
  id: uuid(),
  businessId: string(),
  smsBalance: int().register(globalRegistry, { description: 'SMS segments left to send.' }),
  whatsappBalance: int(),
  createdAt: instant,
}).register(globalRegistry, {
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

export const messageEndpoints = /* @__PURE__ */ endpointsIn('messages', {
  sendMessage: {
    method: 'POST',
    path: '/partner_api/messages',
    caller: 'api_key',
    access: ['table:GetItem', 'table:PutItem', 'table:UpdateItem'],
    tag: 'Messages',
    summary: 'Send an SMS',
    body: sendMessageBody,
    response: messageSchema,
    responseDescription: 'The message, `pending`.',
    idempotent: true,
    errors: ['message_exists_with_reference', 'insufficient_sms_balance'],
  },
  listMessages: {
    method: 'GET',
    path: '/partner_api/messages',
    caller: 'api_key',
    access: [...readsTable, 'table:UpdateItem'],
    tag: 'Messages',
    summary: 'List the messages',
    query: listMessagesQuery,
    response: messageListSchema,
    responseDescription: 'One page of the list.',
  },
  getMessageAccount: {
    // Before getMessage: the local host tries routes in order, and `account` would match `{id}`.
    method: 'GET',
    path: '/partner_api/messages/account',
    caller: 'api_key',
    // The account is created with zero balances on first read.
    access: ['table:GetItem', 'table:PutItem', 'table:UpdateItem'],
    tag: 'Messages',
    summary: 'Get the message account',
    response: messageAccountSchema,
    responseDescription: 'The account.',
  },
  getMessage: {
    method: 'GET',
    path: '/partner_api/messages/{id}',
    caller: 'api_key',
    access: ['table:GetItem', 'table:UpdateItem'],
    tag: 'Messages',
    summary: 'Get a message',
    params: messagePathParams,
    response: messageSchema,
    responseDescription: 'The message as it is now.',
    errors: ['message_not_found'],
  },
});
