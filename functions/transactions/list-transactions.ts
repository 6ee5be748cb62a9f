import { transactionEndpoints } from '#shared/api/transactions.ts';
import { apiHandler } from '#shared/http/api-handler.ts';
import { transactionsOf } from '#shared/operations/transactions.ts';

export const handler = apiHandler(transactionEndpoints.listTransactions, ({ caller, query }) =>
  transactionsOf(caller, query),
);
