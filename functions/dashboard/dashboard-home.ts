import { dashboardEndpoints } from '#shared/api/dashboard.ts';
import { dashboardPage } from '#shared/http/dashboard-session.ts';
import { htmlPage } from '#shared/http/page-handler.ts';
import { businessesOf } from '#shared/operations/dashboard-access.ts';
import { businessOverview, homeMoney } from '#shared/operations/dashboard-overview.ts';
import { dashboardHomePage } from '#shared/pages/dashboard-home.ts';

export const handler = dashboardPage(dashboardEndpoints.dashboardHome, async (request, member, session) => {
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
});
