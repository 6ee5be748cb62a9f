import { dashboardDeveloperEndpoints } from '#shared/api/dashboard-developers.ts';
import { dashboardPage } from '#shared/http/dashboard-session.ts';
import { redirectTo } from '#shared/http/page-handler.ts';
import { revokeKeyOf } from '#shared/operations/dashboard-api-keys.ts';
import { withNotice } from '#shared/pages/dashboard-confirmation.ts';
import { dashboardUrl } from '#shared/pages/dashboard-url.ts';

export const handler = dashboardPage(
  dashboardDeveloperEndpoints.revokeApiKeyPage,
  async (request, member) => {
    await revokeKeyOf(member, request.params.keyId ?? '', request.sourceIp);
    return redirectTo(withNotice(dashboardUrl(request, '/api-keys'), 'revoked', '1'));
  },
);
