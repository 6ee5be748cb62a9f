import { dashboardDeveloperEndpoints } from '#shared/api/dashboard-developers.ts';
import { dashboardPage } from '#shared/http/dashboard-session.ts';
import { htmlPage } from '#shared/http/page-handler.ts';
import { liveKeyOf } from '#shared/operations/dashboard-api-keys.ts';
import { confirmRevokePage } from '#shared/pages/dashboard-api-keys.ts';

export const handler = dashboardPage(
  dashboardDeveloperEndpoints.confirmRevokeApiKeyPage,
  async (request, member, session) => {
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
  },
);
