import {
  _default,
  coerce,
  enum as enumOf,
  globalRegistry,
  gte,
  int,
  iso,
  lte,
  object,
  optional,
  type output,
  pipe,
  refine,
  regex,
  string,
  superRefine,
  transform,
  uuid,
} from 'zod/mini';
import { instant, money, pageOf } from '#shared/api/common.ts';
import { endpointsIn } from '#shared/api/endpoint.ts';
import { type TransactionRecord, transactionTypes } from '#shared/data/transaction-record.ts';

import { maxRangeDays } from '#shared/domain/dates.ts';

export { maxRangeDays };

const dayMs = 24 * 60 * 60 * 1000;

const date = string().check(
  regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'must be a date as YYYY-MM-DD', abort: true }),
  refine(
    (value) =>
      !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) &&
      new Date(`${value}T00:00:00Z`).toISOString().startsWith(value),
    { message: 'The date does not exist.', params: { rule: 'date' } },
  ),
);

const today = () => new Date().toISOString().slice(0, 10);
const daysBefore = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) - days * dayMs).toISOString().slice(0, 10);

export const listTransactionsQuery = pipe(
  object({
    storeId: optional(uuid()).register(globalRegistry, {
      description: 'One store of the business; all of them by default.',
    }),
    page: _default(coerce.number().check(int(), gte(1)), 1),
    limit: _default(coerce.number().check(int(), gte(1), lte(100)), 100),
    startDate: optional(date).register(globalRegistry, {
      description: '`YYYY-MM-DD`; by default 7 days before `endDate`.',
    }),
    endDate: optional(date).register(globalRegistry, {
      description: '`YYYY-MM-DD`, at most 90 days after `startDate`; today by default.',
    }),
    /** Optional: lists as of this instant; by default page 1 takes now and later pages reuse it. */
    asOf: optional(iso.datetime()).register(globalRegistry, {
      description: 'The listing’s instant; page 1 fixes it and the next pages reuse it.',
    }),
  }),
  transform((query) => {
    const endDate = query.endDate ?? today();
    return { ...query, endDate, startDate: query.startDate ?? daysBefore(endDate, 7) };
  }),
).check(
  superRefine((query, context) => {
    if (query.endDate < query.startDate) {
      context.addIssue({
        code: 'custom',
        path: ['endDate'],
        params: { rule: 'after_or_equal' },
        message: 'The endDate field must be a date after or equal to startDate.',
      });
    } else if (Date.parse(query.endDate) - Date.parse(query.startDate) > maxRangeDays * dayMs) {
      context.addIssue({
        code: 'custom',
        path: ['endDate'],
        params: { rule: 'max_range' },
        message: `The endDate field must be at most ${maxRangeDays} days after startDate.`,
      });
    }
  }),
);

export type ListTransactionsQuery = ReturnType<typeof listTransactionsQuery.parse>;

export const transactionSchema = object({
  id: uuid(),
  type: enumOf(transactionTypes).register(globalRegistry, {
    description:
      'A `refund` line gives (part of) a payment back: its `paymentRequestId` and `refundId`. An `sms_credit` line is SMS credit bought from the store’s balance.',
  }),
  status: enumOf(['pending', 'success', 'error']),
  amount: money,
  fees: money,
  currency: string(),
  paymentMethod: string(),
  counterpartLabel: string(),
  counterpartIdentifier: string(),
  description: string(),
  reference: string(),
  storeId: uuid(),
  createdAt: instant,
  transactionDetails: optional(
    object({
      id: optional(string()),
      reference: optional(string()),
      paymentLinkId: optional(string()),
    }),
  ),
  paymentRequestId: optional(uuid()),
  escrowId: optional(uuid()),
  refundId: optional(uuid()),
}).register(globalRegistry, {
  id: 'Transaction',
  examples: [
    {
      id: 'bfe37c2f-5b1d-4c1e-9d7a-0d3e6a2f4b55',
      type: 'payment',
      status: 'success',
      amount: { amount: 1_500_000, currency: 'XOF' },
      fees: { amount: 15_000, currency: 'XOF' },
      currency: 'XOF',
      paymentMethod: 'wave',
      counterpartLabel: 'Aminata Koné',
      counterpartIdentifier: '+2250700000001',
      description: 'Paiement commande-2042',
      reference: 'commande-2042',
      storeId: '4280b1d6-1f3c-4d53-9a7e-2f1c0c6a9b10',
      createdAt: '2026-11-20T14:08:55.402Z',
      transactionDetails: { id: '4130c5e2-8a4f-4d0b-b0f1-6f0f2e7b9a11', reference: 'commande-2042' },
      paymentRequestId: '4130c5e2-8a4f-4d0b-b0f1-6f0f2e7b9a11',
    },
  ],
});

export const transactionListSchema = object({
  ...pageOf(transactionSchema),
  asOf: instant.clone().register(globalRegistry, {
    description: 'The instant the listing is taken at: pass it on, or page with the same query.',
  }),
}).register(globalRegistry, { id: 'TransactionList' });

export type TransactionListResponse = output<typeof transactionListSchema>;

/** A line of the transaction list, as the interface's Transaction. */
export function transactionResponse(record: TransactionRecord): output<typeof transactionSchema> {
  return {
    id: record.id,
    type: record.type,
    status: record.status,
    amount: record.amount,
    fees: record.fees,
    currency: record.currency,
    paymentMethod: record.paymentMethod,
    counterpartLabel: record.counterpartLabel,
    counterpartIdentifier: record.counterpartIdentifier,
    description: record.description,
    reference: record.reference,
    storeId: record.storeId,
    createdAt: record.createdAt,
    ...(record.transactionDetails ? { transactionDetails: record.transactionDetails } : {}),
    ...(record.paymentRequestId ? { paymentRequestId: record.paymentRequestId } : {}),
    ...(record.escrowId ? { escrowId: record.escrowId } : {}),
    ...(record.refundId ? { refundId: record.refundId } : {}),
  };
}

export const transactionEndpoints = /* @__PURE__ */ endpointsIn('transactions', {
  listTransactions: {
    method: 'GET',
    path: '/partner_api/transactions',
    caller: 'api_key',
    // Writes only the listing's snapshot instant (shared/data/list-snapshot.ts).
    access: ['table:GetItem', 'table:Query', 'table:PutItem', 'table:UpdateItem'],
    tag: 'Transactions',
    summary: 'List the transactions',
    query: listTransactionsQuery,
    response: transactionListSchema,
    responseDescription: 'One page of the list.',
    errors: ['store_not_found'],
  },
});
