import { dashboardPageOptions, withSession } from '#shared/http/dashboard-session.ts';
import { htmlPage, pageHandler } from '#shared/http/page-handler.ts';
import { requireAction } from '#shared/operations/dashboard-access.ts';
import { liveKeyOf } from '#shared/operations/dashboard-api-keys.ts';
import { confirmRevokePage } from '#shared/pages/dashboard-api-keys.ts';

export const handler = pageHandler(
  'confirmRevokeApiKeyPage',
  withSession(async (request, session) => {
    const member = await requireAction(session, 'manageKeys');
    const apiKey = await liveKeyOf(member, request.params.keyId ?? '');
    return htmlPage(
      confirmRevokePage(
        {
          ...request,
          pageUrl: `${request.baseUrl}/dashboard/api-keys/${apiKey.id}/revoke`,
          csrfToken: session.csrfToken,
        },
        apiKey,
      ),
    );
  }),
  dashboardPageOptions,
);
