import { dashboardPageOptions, withSession } from '#shared/http/dashboard-session.ts';
import { pageHandler, redirectTo } from '#shared/http/page-handler.ts';
import { chooseBusiness } from '#shared/operations/dashboard-access.ts';
import { dashboardUrl } from '#shared/pages/dashboard-url.ts';

export const handler = pageHandler(
  'chooseBusiness',
  withSession(async (request, session) => {
    await chooseBusiness(session, request.form.businessId ?? '');
    return redirectTo(dashboardUrl(request));
  }),
  dashboardPageOptions,
);
