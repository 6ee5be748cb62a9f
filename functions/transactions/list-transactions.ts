import { apiHandler } from '#shared/http/api-handler.ts';
import { transactionsOf } from '#shared/operations/transactions.ts';
import { transactionRoutes } from '#shared/routes.ts';
import { listTransactionsQuery } from '#shared/schemas/transactions.ts';

export const handler = apiHandler(
  transactionRoutes.listTransactions,
  { query: listTransactionsQuery },
  ({ caller, query }) => transactionsOf(caller, query),
);
