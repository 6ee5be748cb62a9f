import { dashboardTransactionEndpoints } from '#shared/api/dashboard-transactions.ts';
import { listStores } from '#shared/data/store.ts';
import { roleAllows } from '#shared/domain/dashboard-roles.ts';
import { dashboardPage } from '#shared/http/dashboard-session.ts';
import { htmlPage } from '#shared/http/page-handler.ts';
import { transactionFiltersOf, transactionListOf } from '#shared/operations/dashboard-transactions.ts';
import { transactionsPage } from '#shared/pages/dashboard-transactions.ts';

export const handler = dashboardPage(
  dashboardTransactionEndpoints.transactionsPage,
  async (request, member) => {
    const stores = await listStores(member.businessId);
    const { filters, errors } = transactionFiltersOf(
      request.query,
      stores.map((store) => store.id),
    );
    const list = await transactionListOf(member, filters, stores);
    return htmlPage(
      transactionsPage({
        ...request,
        ...list,
        filters,
        errors,
        pageUrl: `${request.baseUrl}/dashboard/transactions`,
        canExport: roleAllows(member.role, 'export'),
      }),
    );
  },
);
