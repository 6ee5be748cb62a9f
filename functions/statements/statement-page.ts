import { statementEndpoints } from '#shared/api/statements.ts';
import { listStores } from '#shared/data/store.ts';
import { roleAllows } from '#shared/domain/dashboard-roles.ts';
import { monthOf } from '#shared/domain/statement.ts';
import { StoreNotFound } from '#shared/errors/businesses.ts';
import { dashboardPage, dashboardPageOptions } from '#shared/http/dashboard-session.ts';
import { htmlPage } from '#shared/http/page-handler.ts';
import {
  chosenMonth,
  statementCsv,
  statementFileName,
  statementMonths,
  statementOf,
} from '#shared/operations/statements.ts';
import { statementContentSecurityPolicy, statementPage } from '#shared/pages/dashboard-statement.ts';

export const handler = dashboardPage(
  statementEndpoints.statementPage,
  async (request, member) => {
    const now = new Date();
    const month = chosenMonth(request.query.month, now);
    const storeId = request.query.store || undefined;
    const statement = month ? await statementOf(member, { month, storeId }) : undefined;
    if (statement && request.query.format === 'csv') {
      const body = statementCsv(statement, request.language);
      const fileName = statementFileName(statement, request.language);
      return { download: { body, contentType: 'text/csv; charset=utf-8', fileName } };
    }
    const stores = statement?.stores ?? (await listStores(member.businessId));
    if (storeId !== undefined && !stores.some((store) => store.id === storeId)) throw new StoreNotFound();
    const page = statementPage({
      ...request,
      businessName: member.businessName,
      stores,
      months: statementMonths(now),
      chosen: { month: month ?? monthOf(now), storeId },
      statement,
      canExport: roleAllows(member.role, 'export'),
      now,
    });
    return htmlPage(page, statement ? 200 : 400);
  },
  { headers: { ...dashboardPageOptions.headers, 'content-security-policy': statementContentSecurityPolicy } },
);
