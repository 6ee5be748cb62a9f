import { dashboardTeamEndpoints } from '#shared/api/dashboard-team.ts';
import { Conflict } from '#shared/errors/request.ts';
import { dashboardPage } from '#shared/http/dashboard-session.ts';
import { htmlPage, redirectTo } from '#shared/http/page-handler.ts';
import { cancelInvitation, teamOf } from '#shared/operations/team.ts';
import { withNotice } from '#shared/pages/dashboard-confirmation.ts';
import { teamPage } from '#shared/pages/dashboard-team.ts';
import { dashboardUrl } from '#shared/pages/dashboard-url.ts';

export const handler = dashboardPage(
  dashboardTeamEndpoints.cancelInvitation,
  async (request, member, session) => {
    try {
      await cancelInvitation(member, request.params.invitationId ?? '', request.sourceIp);
    } catch (error) {
      if (!(error instanceof Conflict)) throw error;
      // Accepted (or sent again) between the confirmation and the post: the team as it is now.
      const page = { ...request, csrfToken: session.csrfToken, ...(await teamOf(member)) };
      return htmlPage(teamPage(page, { notice: 'stale' }), 409);
    }
    return redirectTo(withNotice(dashboardUrl(request, '/team'), 'done', 'cancelled'));
  },
);
