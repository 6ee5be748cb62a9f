import { dashboardTeamEndpoints } from '#shared/api/dashboard-team.ts';
import { dashboardPage } from '#shared/http/dashboard-session.ts';
import { htmlPage } from '#shared/http/page-handler.ts';
import { memberToRemove } from '#shared/operations/team.ts';
import { confirmRemoveMemberPage } from '#shared/pages/dashboard-team.ts';

export const handler = dashboardPage(
  dashboardTeamEndpoints.confirmRemoveMember,
  async (request, acting, session) => {
    const { member } = await memberToRemove(acting, request.params.memberId ?? '');
    return htmlPage(
      confirmRemoveMemberPage(
        {
          ...request,
          pageUrl: `${request.baseUrl}/dashboard/team/members/${member.id}/remove`,
          csrfToken: session.csrfToken,
        },
        acting,
        member,
      ),
    );
  },
);
