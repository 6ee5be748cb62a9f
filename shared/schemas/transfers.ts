import { enum as enumOf, int, NEVER, object, string, uuid } from 'zod';
import type { Transfer } from '#shared/data/transfer.ts';
import { type ContactIdentifier, type ContactMethod, contactMethods } from '#shared/domain/contacts.ts';
import { contactName, parseIdentifier } from '#shared/schemas/contacts.ts';
import { maxAmountCents } from '#shared/schemas/payment-requests.ts';

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

/** The interface's Transfer: the create answer and the GET answer alike. */
export function transferResponse(transfer: Transfer) {
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
