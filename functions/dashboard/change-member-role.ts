import { LastOwner } from '#shared/errors/dashboard.ts';
import { dashboardPageOptions, withSession } from '#shared/http/dashboard-session.ts';
import { htmlPage, pageHandler, redirectTo } from '#shared/http/page-handler.ts';
import { changeMemberRole, teamOf } from '#shared/operations/team.ts';
import { withNotice } from '#shared/pages/dashboard-confirmation.ts';
import { teamPage } from '#shared/pages/dashboard-team.ts';
import { dashboardUrl } from '#shared/pages/dashboard-url.ts';

export const handler = pageHandler(
  'changeMemberRole',
  withSession(async (request, session) => {
    try {
      await changeMemberRole(
        session,
        request.params.memberId ?? '',
        request.form.role ?? '',
        request.sourceIp,
      );
    } catch (error) {
      if (!(error instanceof LastOwner)) throw error;
      const page = { ...request, csrfToken: session.csrfToken, ...(await teamOf(session)) };
      return htmlPage(teamPage(page, { notice: 'last_owner' }), 409);
    }
    return redirectTo(withNotice(dashboardUrl(request, '/team'), 'done', 'roleChanged'));
  }),
  dashboardPageOptions,
);
