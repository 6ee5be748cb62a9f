import { dashboardPageOptions, withSession } from '#shared/http/dashboard-session.ts';
import { htmlPage, pageHandler } from '#shared/http/page-handler.ts';
import { auditFiltersOf, auditPageOf } from '#shared/operations/audit-log.ts';
import { requireAction } from '#shared/operations/dashboard-access.ts';
import { auditLogPage } from '#shared/pages/dashboard-audit.ts';

export const handler = pageHandler(
  'auditLogPage',
  withSession(async (request, session) => {
    const member = await requireAction(session, 'readAudit');
    const filters = auditFiltersOf(request.query);
    return htmlPage(
      auditLogPage({
        ...request,
        ...(await auditPageOf(member, filters)),
        filters,
        pageUrl: `${request.baseUrl}/dashboard/audit`,
      }),
    );
  }),
  dashboardPageOptions,
);
