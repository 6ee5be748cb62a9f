import { coerce, iso, object, string, uuid } from 'zod';
import type { TransactionRecord } from '#shared/data/transaction-record.ts';

/** The longest range one listing covers: 90 days after startDate. */
export const maxRangeDays = 90;
const dayMs = 24 * 60 * 60 * 1000;

const date = string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'must be a date as YYYY-MM-DD', abort: true })
  .refine(
    (value) =>
      !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) &&
      new Date(`${value}T00:00:00Z`).toISOString().startsWith(value),
    { message: 'The date does not exist.', params: { rule: 'date' } },
  );

const today = () => new Date().toISOString().slice(0, 10);
const daysBefore = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) - days * dayMs).toISOString().slice(0, 10);

export const listTransactionsQuery = object({
  storeId: uuid().optional(),
  page: coerce.number().int().min(1).default(1),
  limit: coerce.number().int().min(1).max(100).default(100),
  startDate: date.optional(),
  endDate: date.optional(),
  /** Optional: lists as of this instant; by default page 1 takes now and later pages reuse it. */
  asOf: iso.datetime().optional(),
})
  .transform((query) => {
    const endDate = query.endDate ?? today();
    return { ...query, endDate, startDate: query.startDate ?? daysBefore(endDate, 7) };
  })
  .superRefine((query, context) => {
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
  });

export type ListTransactionsQuery = ReturnType<typeof listTransactionsQuery.parse>;

/** A line of the transaction list, as the interface's Transaction. */
export function transactionResponse(record: TransactionRecord) {
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
  };
}
