import { roleAllows } from '#shared/domain/dashboard-roles.ts';
import { dashboardPageOptions, withSession } from '#shared/http/dashboard-session.ts';
import { htmlPage, pageHandler } from '#shared/http/page-handler.ts';
import { requireAction } from '#shared/operations/dashboard-access.ts';
import { escrowsOverview } from '#shared/operations/dashboard-escrows.ts';
import { escrowsPage } from '#shared/pages/dashboard-escrows.ts';

export const handler = pageHandler(
  'escrowsPage',
  withSession(async (request, session) => {
    const member = await requireAction(session, 'read');
    return htmlPage(
      escrowsPage({
        ...request,
        ...(await escrowsOverview(member)),
        pageUrl: `${request.baseUrl}/dashboard/escrows`,
        canManage: roleAllows(member.role, 'manageEscrows'),
      }),
    );
  }),
  dashboardPageOptions,
);
