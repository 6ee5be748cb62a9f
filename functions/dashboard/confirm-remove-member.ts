import { dashboardPageOptions, withSession } from '#shared/http/dashboard-session.ts';
import { htmlPage, pageHandler } from '#shared/http/page-handler.ts';
import { memberToRemove } from '#shared/operations/team.ts';
import { confirmRemoveMemberPage } from '#shared/pages/dashboard-team.ts';

export const handler = pageHandler(
  'confirmRemoveMember',
  withSession(async (request, session) => {
    const { acting, member } = await memberToRemove(session, request.params.memberId ?? '');
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
  }),
  dashboardPageOptions,
);
