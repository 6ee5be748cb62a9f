import { dashboardTeamEndpoints } from '#shared/api/dashboard-team.ts';
import { dashboardPageOptions, withSession } from '#shared/http/dashboard-session.ts';
import { pageHandler, redirectTo } from '#shared/http/page-handler.ts';
import { chooseBusiness } from '#shared/operations/dashboard-access.ts';
import { dashboardUrl } from '#shared/pages/dashboard-url.ts';

export const handler = pageHandler(
  dashboardTeamEndpoints.chooseBusiness,
  withSession(async (request, session) => {
    await chooseBusiness(session, request.fields.businessId);
    return redirectTo(dashboardUrl(request));
  }),
  dashboardPageOptions,
);
