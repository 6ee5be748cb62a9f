import { roleAllows } from '#shared/domain/dashboard-roles.ts';
import { dashboardPageOptions, withSession } from '#shared/http/dashboard-session.ts';
import { htmlPage, pageHandler } from '#shared/http/page-handler.ts';
import { requireAction } from '#shared/operations/dashboard-access.ts';
import { keysOverview } from '#shared/operations/dashboard-api-keys.ts';
import { apiKeysPage } from '#shared/pages/dashboard-api-keys.ts';

export const handler = pageHandler(
  'apiKeysPage',
  withSession(async (request, session) => {
    const member = await requireAction(session, 'read');
    return htmlPage(
      apiKeysPage({
        ...request,
        ...(await keysOverview(member)),
        pageUrl: `${request.baseUrl}/dashboard/api-keys`,
        csrfToken: session.csrfToken,
        canManage: roleAllows(member.role, 'manageKeys'),
      }),
    );
  }),
  dashboardPageOptions,
);
