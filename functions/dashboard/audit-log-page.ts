import { dashboardDeveloperEndpoints } from '#shared/api/dashboard-developers.ts';
import { dashboardPage } from '#shared/http/dashboard-session.ts';
import { htmlPage } from '#shared/http/page-handler.ts';
import { auditFiltersOf, auditPageOf } from '#shared/operations/audit-log.ts';
import { auditLogPage } from '#shared/pages/dashboard-audit.ts';

export const handler = dashboardPage(dashboardDeveloperEndpoints.auditLogPage, async (request, member) => {
  const filters = auditFiltersOf(request.query);
  return htmlPage(
    auditLogPage({
      ...request,
      ...(await auditPageOf(member, filters)),
      filters,
      pageUrl: `${request.baseUrl}/dashboard/audit`,
    }),
  );
});
