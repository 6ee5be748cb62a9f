import { listStores } from '#shared/data/store.ts';
import { roleAllows } from '#shared/domain/dashboard-roles.ts';
import { dashboardPageOptions, withSession } from '#shared/http/dashboard-session.ts';
import { htmlPage, pageHandler } from '#shared/http/page-handler.ts';
import { requireAction } from '#shared/operations/dashboard-access.ts';
import { transactionFiltersOf, transactionListOf } from '#shared/operations/dashboard-transactions.ts';
import { transactionsPage } from '#shared/pages/dashboard-transactions.ts';

export const handler = pageHandler(
  'transactionsPage',
  withSession(async (request, session) => {
    const member = await requireAction(session, 'read');
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
  }),
  dashboardPageOptions,
);
