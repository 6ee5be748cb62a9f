import { dashboardPageOptions, withSession } from '#shared/http/dashboard-session.ts';
import { htmlPage, pageHandler } from '#shared/http/page-handler.ts';
import { teamOf } from '#shared/operations/team.ts';
import { teamPage } from '#shared/pages/dashboard-team.ts';

export const handler = pageHandler(
  'teamPage',
  withSession(async (request, session) =>
    htmlPage(teamPage({ ...request, csrfToken: session.csrfToken, ...(await teamOf(session)) })),
  ),
  dashboardPageOptions,
);
