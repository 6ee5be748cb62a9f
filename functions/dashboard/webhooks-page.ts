import { roleAllows } from '#shared/domain/dashboard-roles.ts';
import { dashboardPageOptions, withSession } from '#shared/http/dashboard-session.ts';
import { htmlPage, pageHandler } from '#shared/http/page-handler.ts';
import { requireAction } from '#shared/operations/dashboard-access.ts';
import { webhooksOverview } from '#shared/operations/dashboard-webhooks.ts';
import { webhooksPage } from '#shared/pages/dashboard-webhooks.ts';

export const handler = pageHandler(
  'webhooksPage',
  withSession(async (request, session) => {
    const member = await requireAction(session, 'read');
    return htmlPage(
      webhooksPage({
        ...request,
        ...(await webhooksOverview(member)),
        pageUrl: `${request.baseUrl}/dashboard/webhooks`,
        csrfToken: session.csrfToken,
        canManage: roleAllows(member.role, 'manageWebhooks'),
      }),
    );
  }),
  dashboardPageOptions,
);
