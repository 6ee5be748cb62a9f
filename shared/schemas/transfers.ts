import { enum as enumOf, int, literal, NEVER, nullable, object, type output, string, uuid } from 'zod';
import type { Transfer } from '#shared/data/transfer.ts';
import { type ContactIdentifier, type ContactMethod, contactMethods } from '#shared/domain/contacts.ts';
import { instant, money } from '#shared/schemas/common.ts';
import { contactName, parseIdentifier } from '#shared/schemas/contacts.ts';
import type { RouteContracts } from '#shared/schemas/contract.ts';
import { maxAmountCents } from '#shared/schemas/payment-requests.ts';
import { providerCallbackQuery } from '#shared/schemas/provider-callbacks.ts';

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
export const createTransferBody = object({
  storeId: uuid(),
  amountCents: int().min(500).max(maxAmountCents),
  currency: string().regex(/^[A-Z]{3}$/, 'must be a 3-letter ISO 4217 code'),
  description: string().max(255).optional(),
  reference: string().min(1).max(100).optional(),
  contactId: uuid().optional(),
  name: contactName.optional(),
  paymentMethod: enumOf([...contactMethods, 'svc']).optional(),
  identifier: object({}).passthrough().optional(),
  destinationStoreId: uuid().optional(),
}).transform((body, context) => {
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
});

export type CreateTransferBody = ReturnType<typeof createTransferBody.parse>;

export const transferPathParams = object({ id: uuid() });

export const transferSchema = object({
  id: uuid(),
  storeId: uuid(),
  contactId: uuid().meta({
    description: 'The beneficiary: the contact given, or the one the transfer made.',
  }),
  amount: money,
  fees: money,
  status: enumOf(['pending', 'success', 'error']),
  errorReason: nullable(string()).meta({
    description: 'Why it ended in `error`: `declined`, `insufficient_balance`, ...',
  }),
  paymentMethod: enumOf([...contactMethods, 'svc']),
  beneficiary: string().meta({ description: 'The beneficiary’s name (the receiving store’s, for `svc`).' }),
  destinationStoreId: uuid().optional(),
  description: string(),
  reference: string().meta({ description: 'Yours, or the transfer’s id when none was given.' }),
  createdAt: instant,
  transaction: object({ id: uuid(), status: enumOf(['pending', 'success', 'error']) }).meta({
    description: 'The line of the transaction list that reports it.',
  }),
}).meta({
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
      beneficiary: 'Kouassi Yao (fournisseur attiéké)',
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
    beneficiary: transfer.beneficiary,
    ...(transfer.destinationStoreId ? { destinationStoreId: transfer.destinationStoreId } : {}),
    description: transfer.description,
    reference: transfer.reference,
    createdAt: transfer.createdAt,
    transaction: { id: transfer.transactionId, status: transfer.status },
  };
}

export const transferContracts = {
  createTransfer: {
    tag: 'Transfers',
    summary: 'Send money out of a store',
    description:
      'Pays a beneficiary from a store’s available balance: a contact (`contactId`); a new beneficiary ' +
      '(`name`, `paymentMethod`, `identifier`, saved as a contact); or another store of the business ' +
      '(`paymentMethod: "svc"`, `destinationStoreId`). The amount and fees are reserved at once; a payout ' +
      'stays `pending` until the provider answers, then the `TRANSACTION_COMPLETED` webhook (with ' +
      '`transactionType: "transfer"`) tells how it ended. A transfer between stores completes at once.',
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
    ],
  },
  getTransfer: {
    tag: 'Transfers',
    summary: 'Get a transfer',
    params: transferPathParams,
    response: transferSchema,
    responseDescription: 'The transfer as it is now.',
    errors: ['transfer_not_found'],
  },
  completeSandboxTransfer: {
    tag: 'Sandbox',
    summary: 'Complete a payout (sandbox)',
    description:
      'Plays the provider paying the beneficiary of a payout it has not settled by itself (a number ' +
      'ending in `04`), through its signed callback.',
    params: transferPathParams,
    response: transferSchema,
    responseDescription: 'The transfer after the callback, in `success`.',
    errors: ['transfer_not_found', 'conflict'],
  },
  failSandboxTransfer: {
    tag: 'Sandbox',
    summary: 'Fail a payout (sandbox)',
    params: transferPathParams,
    response: transferSchema,
    responseDescription: 'The transfer after the callback, in `error`, its reservation given back.',
    errors: ['transfer_not_found', 'conflict'],
  },
} as const satisfies RouteContracts;

export const payoutCallbackParams = object({ provider: enumOf([...contactMethods]) });

export const payoutCallbackContracts = {
  receivePayoutCallback: {
    tag: 'Providers',
    summary: 'Receive a provider’s payout callback',
    description:
      'Where a provider (or the bank, `bank`) tells the service how a payout ended, signed with the key ' +
      'it shares with the service. Only a verified callback changes anything; a repeated one changes nothing.',
    params: payoutCallbackParams,
    query: providerCallbackQuery,
    response: object({
      received: literal(true),
      result: enumOf(['completed', 'already_completed', 'unknown_transfer', 'wrong_payout']),
    }),
    responseDescription: 'Taken into account (or already was).',
    errors: ['unauthorized'],
  },
  receivePayoutCallbackPut: {
    tag: 'Providers',
    summary: 'Receive a provider’s payout callback (PUT)',
    description:
      'MTN MoMo calls back with PUT as often as POST: the same as the POST. Where a provider (or the bank, `bank`) tells the service how a payout ended, signed with the key ' +
      'it shares with the service. Only a verified callback changes anything; a repeated one changes nothing.',
    params: payoutCallbackParams,
    query: providerCallbackQuery,
    response: object({
      received: literal(true),
      result: enumOf(['completed', 'already_completed', 'unknown_transfer', 'wrong_payout']),
    }),
    responseDescription: 'Taken into account (or already was).',
    errors: ['unauthorized'],
  },
} as const satisfies RouteContracts;
