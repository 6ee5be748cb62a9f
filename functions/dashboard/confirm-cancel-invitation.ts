import { dashboardPageOptions, withSession } from '#shared/http/dashboard-session.ts';
import { htmlPage, pageHandler } from '#shared/http/page-handler.ts';
import { pendingInvitationOf } from '#shared/operations/team.ts';
import { confirmCancelInvitationPage } from '#shared/pages/dashboard-team.ts';

export const handler = pageHandler(
  'confirmCancelInvitation',
  withSession(async (request, session) => {
    const invitationId = request.params.invitationId ?? '';
    const { invitation } = await pendingInvitationOf(session, invitationId);
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
  }),
  dashboardPageOptions,
);
