import { dashboardEscrowEndpoints } from '#shared/api/dashboard-escrows.ts';
import { roleAllows } from '#shared/domain/dashboard-roles.ts';
import { dashboardPage } from '#shared/http/dashboard-session.ts';
import { htmlPage } from '#shared/http/page-handler.ts';
import { escrowsOverview } from '#shared/operations/dashboard-escrows.ts';
import { escrowsPage } from '#shared/pages/dashboard-escrows.ts';

export const handler = dashboardPage(dashboardEscrowEndpoints.escrowsPage, async (request, member) => {
  return htmlPage(
    escrowsPage({
      ...request,
      ...(await escrowsOverview(member)),
      pageUrl: `${request.baseUrl}/dashboard/escrows`,
      canManage: roleAllows(member.role, 'manageEscrows'),
      done:
        request.query.done === 'released' || request.query.done === 'refunded'
          ? request.query.done
          : undefined,
    }),
  );
});
