import { dashboardTeamEndpoints } from '#shared/api/dashboard-team.ts';
import { LastOwner } from '#shared/errors/dashboard.ts';
import { dashboardPage } from '#shared/http/dashboard-session.ts';
import { htmlPage, redirectTo } from '#shared/http/page-handler.ts';
import { changeMemberRole, teamOf } from '#shared/operations/team.ts';
import { withNotice } from '#shared/pages/dashboard-confirmation.ts';
import { teamPage } from '#shared/pages/dashboard-team.ts';
import { dashboardUrl } from '#shared/pages/dashboard-url.ts';

export const handler = dashboardPage(
  dashboardTeamEndpoints.changeMemberRole,
  async (request, member, session) => {
    try {
      await changeMemberRole(
        member,
        request.params.memberId ?? '',
        request.fields.role ?? '',
        request.sourceIp,
      );
    } catch (error) {
      if (!(error instanceof LastOwner)) throw error;
      const page = { ...request, csrfToken: session.csrfToken, ...(await teamOf(member)) };
      return htmlPage(teamPage(page, { notice: 'last_owner' }), 409);
    }
    return redirectTo(withNotice(dashboardUrl(request, '/team'), 'done', 'roleChanged'));
  },
);
