import {
  enum as enumOf,
  globalRegistry,
  gte,
  int,
  looseObject,
  lte,
  maxLength,
  minLength,
  NEVER,
  nullable,
  object,
  optional,
  type output,
  pipe,
  regex,
  string,
  uuid,
} from 'zod/mini';
import { instant, money, paymentMethodInput, transformWithIssues } from '#shared/api/common.ts';
import { contactName, parseIdentifier } from '#shared/api/contacts.ts';
import { endpointsIn } from '#shared/api/endpoint.ts';
import { paysOut } from '#shared/catalogue/access.ts';
import type { Transfer } from '#shared/data/transfer.ts';
import {
  beneficiaryLabel,
  type ContactIdentifier,
  type ContactMethod,
  contactMethods,
} from '#shared/domain/contacts.ts';
import { maxAmountCents } from '#shared/domain/money.ts';

export type BeneficiaryForm =
  | { form: 'contact'; contactId: string }
  | { form: 'inline'; name: string; paymentMethod: ContactMethod; identifier: ContactIdentifier }
  | { form: 'store'; destinationStoreId: string };

const formFields = {
  contact: ['contactId'],
  inline: ['name', 'paymentMethod', 'identifier'],
  store: ['paymentMethod', 'destinationStoreId'],
} as const;

/**
 * Exactly one beneficiary form: `contactId`; or `name`, `paymentMethod`, `identifier` (inline);
 * or `paymentMethod: "svc"` with `destinationStoreId`. None, or two at once, is refused naming the
 * fields in question.
 */
export const createTransferBody = pipe(
  object({
    storeId: uuid(),
    amountCents: int().check(gte(500), lte(maxAmountCents)),
    currency: string().check(regex(/^[A-Z]{3}$/, 'must be a 3-letter ISO 4217 code')),
    description: optional(string().check(maxLength(255))),
    reference: optional(string().check(minLength(1), maxLength(100))),
    contactId: optional(uuid()),
    name: optional(contactName),
    paymentMethod: optional(paymentMethodInput([...contactMethods, 'svc'])),
    identifier: optional(looseObject({})),
    destinationStoreId: optional(uuid()),
  }),
  transformWithIssues((body, context) => {
    const given = {
      contact: body.contactId !== undefined,
      inline:
        body.name !== undefined ||
        body.identifier !== undefined ||
        (body.paymentMethod !== undefined && body.paymentMethod !== 'svc'),
      store: body.destinationStoreId !== undefined || body.paymentMethod === 'svc',
    };
    const forms = (Object.keys(given) as (keyof typeof given)[]).filter((form) => given[form]);
    if (forms.length === 0) {
      for (const field of ['contactId', 'paymentMethod'] as const) {
        context.addIssue({
          code: 'custom',
          path: [field],
          params: { rule: 'required_without_all' },
          message: `The ${field} field is required: give a contactId; or name, paymentMethod and identifier; or paymentMethod svc with destinationStoreId.`,
        });
      }
      return NEVER;
    }
    if (forms.length > 1) {
      const present = new Set(
        forms.flatMap((form) => formFields[form].filter((field) => body[field] !== undefined)),
      );
      for (const field of present) {
        context.addIssue({
          code: 'custom',
          path: [field],
          params: { rule: 'prohibited' },
          message: `The ${field} field cannot be combined with the fields of another beneficiary form (${forms.join(', ')}): give exactly one.`,
        });
      }
      return NEVER;
    }
    // Money that leaves through a provider is whole francs (wholeFrancCents says why); a transfer
    // between two stores of the service (svc) moves cents on the ledger alone.
    if (forms[0] !== 'store' && body.amountCents % 100 !== 0) {
      context.addIssue({
        code: 'custom',
        path: ['amountCents'],
        params: { rule: 'multiple_of' },
        message:
          'The amountCents field must be whole francs (a multiple of 100 cents): XOF has no smaller unit.',
      });
      return NEVER;
    }
    const common = {
      storeId: body.storeId,
      amountCents: body.amountCents,
      currency: body.currency,
      description: body.description,
      reference: body.reference,
    };
    let beneficiary: BeneficiaryForm | undefined;
    if (given.contact && body.contactId) {
      beneficiary = { form: 'contact', contactId: body.contactId };
    } else if (given.store) {
      const missing = (['paymentMethod', 'destinationStoreId'] as const).filter(
        (field) => body[field] === undefined,
      );
      for (const field of missing) {
        context.addIssue({
          code: 'custom',
          path: [field],
          params: { rule: 'required' },
          message:
            field === 'paymentMethod'
              ? 'The paymentMethod field is required and must be svc for a transfer to a store.'
              : 'The destinationStoreId field is required when paymentMethod is svc.',
        });
      }
      if (body.destinationStoreId && missing.length === 0) {
        beneficiary = { form: 'store', destinationStoreId: body.destinationStoreId };
      }
    } else {
      for (const field of ['name', 'paymentMethod'] as const) {
        if (body[field] === undefined) {
          context.addIssue({
            code: 'custom',
            path: [field],
            params: { rule: 'required' },
            message: `The ${field} field is required for an inline beneficiary.`,
          });
        }
      }
      const method = body.paymentMethod === 'svc' ? undefined : body.paymentMethod;
      const identifier = method ? parseIdentifier(method, body.identifier, context) : undefined;
      if (body.name && method && identifier) {
        beneficiary = { form: 'inline', name: body.name, paymentMethod: method, identifier };
      }
    }
    if (!beneficiary) return NEVER;
    if (beneficiary.form === 'store' && beneficiary.destinationStoreId === body.storeId) {
      context.addIssue({
        code: 'custom',
        path: ['destinationStoreId'],
        params: { rule: 'different' },
        message: 'The destinationStoreId field must be another store than storeId.',
      });
      return NEVER;
    }
    return { ...common, beneficiary };
  }),
);

export type CreateTransferBody = ReturnType<typeof createTransferBody.parse>;

export const transferPathParams = object({ id: uuid() });

export const transferSchema = object({
  id: uuid(),
  storeId: uuid(),
  contactId: uuid().register(globalRegistry, {
    description: 'The beneficiary: the contact given, or the one the transfer made.',
  }),
  amount: money,
  fees: money,
  status: enumOf(['pending', 'success', 'error']),
  errorReason: nullable(string()).register(globalRegistry, {
    description: 'Why it ended in `error`: `declined`, `insufficient_balance`, ...',
  }),
  paymentMethod: enumOf([...contactMethods, 'svc']),
  beneficiary: string().register(globalRegistry, {
    description:
      'Whom the money goes to: the mobile-money number in E.164 (`+2250701234567`); for `bank`, the bank code, agency code, account number and key, space-separated; for `svc`, the receiving store’s name.',
  }),
  beneficiaryName: string().register(globalRegistry, {
    description: 'The beneficiary’s name: the contact’s, the inline `name`, or the receiving store’s.',
  }),
  destinationStoreId: optional(uuid()),
  description: string(),
  reference: string().register(globalRegistry, {
    description: 'Yours, or the transfer’s id when none was given.',
  }),
  createdAt: instant,
  transaction: object({ id: uuid(), status: enumOf(['pending', 'success', 'error']) }).register(
    globalRegistry,
    {
      description: 'The line of the transaction list that reports it.',
    },
  ),
}).register(globalRegistry, {
  id: 'Transfer',
  examples: [
    {
      id: '6c1e2d3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f',
      storeId: '4280b1d6-1f3c-4d53-9a7e-2f1c0c6a9b10',
      contactId: '9d2f6b8e-3c41-4a7e-8f5d-1b2c3d4e5f60',
      amount: { amount: 2_500_000, currency: 'XOF' },
      fees: { amount: 25_000, currency: 'XOF' },
      status: 'pending',
      errorReason: null,
      paymentMethod: 'orange',
      beneficiary: '+2250701234567',
      beneficiaryName: 'Kouassi Yao (fournisseur attiéké)',
      description: 'Règlement facture fournisseur 118',
      reference: 'virement-fournisseur-118',
      createdAt: '2026-11-20T15:30:00.000Z',
      transaction: { id: '7d2e3f40-5b6c-4d7e-9f80-a1b2c3d4e5f6', status: 'pending' },
    },
  ],
});

export type TransferResponse = output<typeof transferSchema>;

/** The interface's Transfer: the create answer and the GET answer alike. */
export function transferResponse(transfer: Transfer): TransferResponse {
  return {
    id: transfer.id,
    storeId: transfer.storeId,
    contactId: transfer.contactId,
    amount: { amount: transfer.amountCents, currency: transfer.currency },
    fees: { amount: transfer.feeCents, currency: transfer.currency },
    status: transfer.status,
    errorReason: transfer.errorReason,
    paymentMethod: transfer.paymentMethod,
    beneficiary: beneficiaryLabel(
      transfer.paymentMethod,
      transfer.beneficiaryIdentifier,
      transfer.beneficiary,
    ),
    beneficiaryName: transfer.beneficiary,
    ...(transfer.destinationStoreId ? { destinationStoreId: transfer.destinationStoreId } : {}),
    description: transfer.description,
    reference: transfer.reference,
    createdAt: transfer.createdAt,
    transaction: { id: transfer.transactionId, status: transfer.status },
  };
}

export const transferEndpoints = /* @__PURE__ */ endpointsIn('transfers', {
  createTransfer: {
    // Sends the webhook of a transfer between stores (or one refused at once) right away.
    method: 'POST',
    path: '/partner_api/transfers',
    caller: 'api_key',
    access: [
      // Query: whether the operator is down (shared/providers/operator-health.ts).
      'table:Query',
      'table:GetItem',
      'table:PutItem',
      'table:UpdateItem',
      'table:DeleteItem',
      ...paysOut,
    ],
    tag: 'Transfers',
    summary: 'Send money out of a store',
    body: createTransferBody,
    response: transferSchema,
    responseDescription: 'The transfer.',
    idempotent: true,
    errors: [
      'store_not_found',
      'contact_not_found',
      'transfer_exists_with_reference',
      'insufficient_balance',
      'third_party_payment_provider_error',
      // The operator is down for now: nothing written; Retry-After says when to try again.
      'provider_unavailable',
    ],
  },
  getTransfer: {
    method: 'GET',
    path: '/partner_api/transfers/{id}',
    caller: 'api_key',
    access: ['table:GetItem', 'table:UpdateItem'],
    tag: 'Transfers',
    summary: 'Get a transfer',
    params: transferPathParams,
    response: transferSchema,
    responseDescription: 'The transfer as it is now.',
    errors: ['transfer_not_found'],
  },
});
