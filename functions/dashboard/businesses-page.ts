import { dashboardTeamEndpoints } from '#shared/api/dashboard-team.ts';
import { dashboardPageOptions, withSession } from '#shared/http/dashboard-session.ts';
import { htmlPage, pageHandler } from '#shared/http/page-handler.ts';
import { businessesOf } from '#shared/operations/dashboard-access.ts';
import { businessesPage } from '#shared/pages/dashboard-businesses.ts';

export const handler = pageHandler(
  dashboardTeamEndpoints.businessesPage,
  withSession(async (request, session) =>
    htmlPage(
      businessesPage({
        ...request,
        csrfToken: session.csrfToken,
        memberships: await businessesOf(session),
        currentBusinessId: session.businessId,
      }),
    ),
  ),
  dashboardPageOptions,
);
