import { dashboardTeamEndpoints } from '#shared/api/dashboard-team.ts';
import { dashboardPage } from '#shared/http/dashboard-session.ts';
import { htmlPage } from '#shared/http/page-handler.ts';
import { pendingInvitationOf } from '#shared/operations/team.ts';
import { confirmCancelInvitationPage } from '#shared/pages/dashboard-team.ts';

export const handler = dashboardPage(
  dashboardTeamEndpoints.confirmCancelInvitation,
  async (request, member, session) => {
    const invitationId = request.params.invitationId ?? '';
    const { invitation } = await pendingInvitationOf(member, invitationId);
    return htmlPage(
      confirmCancelInvitationPage(
        {
          ...request,
          pageUrl: `${request.baseUrl}/dashboard/team/invitations/${invitationId}/cancel`,
          csrfToken: session.csrfToken,
        },
        invitation,
      ),
    );
  },
);
