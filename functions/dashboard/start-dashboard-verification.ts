import { dashboardPageOptions, withSession } from '#shared/http/dashboard-session.ts';
import { pageHandler, redirectTo } from '#shared/http/page-handler.ts';
import { startOwnVerification } from '#shared/operations/compliance-verifications.ts';
import { requireAction } from '#shared/operations/dashboard-access.ts';
import { dashboardUrl } from '#shared/pages/dashboard-url.ts';

export const handler = pageHandler(
  'startDashboardVerification',
  withSession(async (request, session) => {
    const verification = await startOwnVerification(await requireAction(session, 'verify'), request.baseUrl);
    return redirectTo(dashboardUrl(request, `/verification/${verification.id}`));
  }),
  dashboardPageOptions,
);
