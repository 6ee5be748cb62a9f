import { dashboardEndpoints } from '#shared/api/dashboard.ts';
import { dashboardPageOptions, endedSessionCookie, withSession } from '#shared/http/dashboard-session.ts';
import { pageHandler, redirectTo } from '#shared/http/page-handler.ts';
import { endSession } from '#shared/operations/dashboard-sessions.ts';
import { dashboardUrl } from '#shared/pages/dashboard-url.ts';

export const handler = pageHandler(
  dashboardEndpoints.signOut,
  withSession(async (request, session) => {
    await endSession(session);
    return redirectTo(dashboardUrl(request, '/sign-in'), endedSessionCookie(request.baseUrl));
  }),
  dashboardPageOptions,
);
