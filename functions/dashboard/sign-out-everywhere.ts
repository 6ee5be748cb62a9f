import { dashboardTeamEndpoints } from '#shared/api/dashboard-team.ts';
import { dashboardPageOptions, endedSessionCookie, withSession } from '#shared/http/dashboard-session.ts';
import { pageHandler, redirectTo } from '#shared/http/page-handler.ts';
import { endAllSessions } from '#shared/operations/dashboard-sessions.ts';
import { dashboardUrl } from '#shared/pages/dashboard-url.ts';

export const handler = pageHandler(
  dashboardTeamEndpoints.signOutEverywhere,
  withSession(async (request, session) => {
    await endAllSessions(session);
    return redirectTo(dashboardUrl(request, '/sign-in'), endedSessionCookie(request.baseUrl));
  }),
  dashboardPageOptions,
);
