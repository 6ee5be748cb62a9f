import {
  array,
  enum as enumOf,
  globalRegistry,
  literal,
  looseObject,
  maxLength,
  minLength,
  NEVER,
  object,
  optional,
  type output,
  pipe,
  string,
  trim,
  union,
  uuid,
} from 'zod/mini';
import type { $RefinementCtx } from 'zod/v4/core';
import { instant, paymentMethodInput, transformWithIssues } from '#shared/api/common.ts';
import { endpointsIn } from '#shared/api/endpoint.ts';
import { unservedNumberMessage, zoneNumberMessage } from '#shared/api/phone-number.ts';
import { readsTable } from '#shared/catalogue/access.ts';
import type { Contact } from '#shared/data/contact.ts';
import {
  type BankIdentifier,
  type ContactIdentifier,
  type ContactMethod,
  contactMethods,
} from '#shared/domain/contacts.ts';
import { readZoneNumber } from '#shared/domain/phone-numbers.ts';

const bankFields = ['bankName', 'accountNumber', 'bankCode', 'swiftCode', 'agencyCode', 'key'] as const;

/**
 * The identifier of a beneficiary, checked against its method: a mobile-money number (`number`,
 * or `reference` as some integrations send it) of a UEMOA country the provider serves, stored in
 * E.164; a bank account with all six of its fields. Adds one issue per problem, with
 * the field's path under `identifier`, and answers undefined then.
 */
export function parseIdentifier(
  method: ContactMethod,
  identifier: unknown,
  context: $RefinementCtx,
): ContactIdentifier | undefined {
  const fields = (typeof identifier === 'object' && identifier !== null ? identifier : {}) as Record<
    string,
    unknown
  >;
  if (typeof identifier !== 'object' || identifier === null || Array.isArray(identifier)) {
    context.addIssue({
      code: 'custom',
      path: ['identifier'],
      params: { rule: identifier === undefined ? 'required' : 'type' },
      message:
        identifier === undefined
          ? 'The identifier field is required.'
          : 'The identifier field must be an object.',
    });
    return undefined;
  }
  if (method !== 'bank') {
    const typed = fields.number ?? fields.reference;
    // A national form is read as Ivorian: a contact belongs to the business, not to a store.
    const number = typeof typed === 'string' ? readZoneNumber(typed)?.e164 : undefined;
    const unserved = number && unservedNumberMessage('identifier.number', method, number);
    if (number && !unserved) return { number };
    context.addIssue({
      code: 'custom',
      path: ['identifier', 'number'],
      params: { rule: typed === undefined ? 'required' : unserved ? 'provider_country' : 'format' },
      message:
        typed === undefined
          ? 'The identifier.number field is required.'
          : unserved || zoneNumberMessage('identifier.number'),
    });
    return undefined;
  }
  const bank: Partial<BankIdentifier> = {};
  for (const field of bankFields) {
    const value = fields[field];
    if (typeof value === 'string' && value.trim().length >= 1 && value.length <= 64) {
      bank[field] = value.trim();
      continue;
    }
    context.addIssue({
      code: 'custom',
      path: ['identifier', field],
      params: { rule: value === undefined ? 'required' : typeof value === 'string' ? 'max' : 'type' },
      message:
        value === undefined
          ? `The identifier.${field} field is required.`
          : `The identifier.${field} field must be a string of 1 to 64 characters.`,
    });
  }
  return Object.keys(bank).length === bankFields.length ? (bank as BankIdentifier) : undefined;
}

export const contactName = string().check(trim(), minLength(1), maxLength(255));

export const createContactBody = pipe(
  object({
    name: contactName,
    paymentMethod: paymentMethodInput(contactMethods),
    identifier: optional(looseObject({})),
  }),
  transformWithIssues((body, context) => {
    const identifier = parseIdentifier(body.paymentMethod, body.identifier, context);
    if (!identifier) return NEVER;
    return { name: body.name, paymentMethod: body.paymentMethod, identifier };
  }),
);

export type CreateContactBody = ReturnType<typeof createContactBody.parse>;

export const contactPathParams = object({ id: uuid() });

/** What the money is sent to: a mobile-money number, a bank account, or (`svc`) a store. */
export const contactIdentifierSchema = union([
  object({ number: string().register(globalRegistry, { examples: ['+2250700000001'] }) }),
  object({
    bankName: string(),
    accountNumber: string(),
    bankCode: string(),
    swiftCode: string(),
    agencyCode: string(),
    key: string(),
  }),
  object({ storeId: uuid() }),
]).register(globalRegistry, { id: 'ContactIdentifier' });

export const contactSchema = object({
  id: uuid(),
  name: string(),
  paymentMethod: enumOf([...contactMethods, 'svc']),
  identifier: contactIdentifierSchema,
  createdAt: instant,
}).register(globalRegistry, {
  id: 'Contact',
  examples: [
    {
      id: '9d2f6b8e-3c41-4a7e-8f5d-1b2c3d4e5f60',
      name: 'Kouassi Yao (fournisseur attiéké)',
      paymentMethod: 'orange',
      identifier: { number: '+2250700000001' },
      createdAt: '2026-11-20T10:02:11.000Z',
    },
  ],
});

export type ContactResponse = output<typeof contactSchema>;

export function contactResponse(contact: Contact): ContactResponse {
  return {
    id: contact.id,
    name: contact.name,
    paymentMethod: contact.paymentMethod,
    identifier: contact.identifier,
    createdAt: contact.createdAt,
  };
}

export const contactEndpoints = /* @__PURE__ */ endpointsIn('contacts', {
  listContacts: {
    method: 'GET',
    path: '/partner_api/contacts',
    caller: 'api_key',
    access: [...readsTable, 'table:UpdateItem'],
    tag: 'Contacts',
    summary: 'List the contacts',
    response: array(contactSchema),
    responseDescription: 'The contacts, as a bare array.',
  },
  createContact: {
    method: 'POST',
    path: '/partner_api/contacts',
    caller: 'api_key',
    access: ['table:GetItem', 'table:PutItem', 'table:UpdateItem'],
    tag: 'Contacts',
    summary: 'Create a contact',
    body: createContactBody,
    response: contactSchema,
    responseDescription: 'The contact.',
  },
  deleteContact: {
    method: 'DELETE',
    path: '/partner_api/contacts/{id}',
    caller: 'api_key',
    access: ['table:GetItem', 'table:UpdateItem', 'table:DeleteItem'],
    tag: 'Contacts',
    summary: 'Delete a contact',
    params: contactPathParams,
    response: object({ id: uuid(), deleted: literal(true) }),
    responseDescription: 'Deleted.',
    errors: ['contact_not_found'],
  },
});
