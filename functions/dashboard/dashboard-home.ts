import { dashboardPageOptions, withSession } from '#shared/http/dashboard-session.ts';
import { htmlPage, pageHandler } from '#shared/http/page-handler.ts';
import { businessesOf, requireAction } from '#shared/operations/dashboard-access.ts';
import { businessOverview, homeMoney } from '#shared/operations/dashboard-overview.ts';
import { dashboardHomePage } from '#shared/pages/dashboard-home.ts';

export const handler = pageHandler(
  'dashboardHome',
  withSession(async (request, session) => {
    const member = await requireAction(session, 'read');
    const [overview, money, memberships] = await Promise.all([
      businessOverview(member),
      homeMoney(member),
      businessesOf(session),
    ]);
    return htmlPage(
      dashboardHomePage({
        ...request,
        csrfToken: session.csrfToken,
        member,
        overview,
        money,
        memberships,
      }),
    );
  }),
  dashboardPageOptions,
);
