import { dashboardPageOptions, withSession } from '#shared/http/dashboard-session.ts';
import { pageHandler, redirectTo } from '#shared/http/page-handler.ts';
import { requireAction } from '#shared/operations/dashboard-access.ts';
import { revokeKeyOf } from '#shared/operations/dashboard-api-keys.ts';
import { withNotice } from '#shared/pages/dashboard-confirmation.ts';
import { dashboardUrl } from '#shared/pages/dashboard-url.ts';

export const handler = pageHandler(
  'revokeApiKeyPage',
  withSession(async (request, session) => {
    const member = await requireAction(session, 'manageKeys');
    await revokeKeyOf(member, request.params.keyId ?? '', request.sourceIp);
    return redirectTo(withNotice(dashboardUrl(request, '/api-keys'), 'revoked', '1'));
  }),
  dashboardPageOptions,
);
