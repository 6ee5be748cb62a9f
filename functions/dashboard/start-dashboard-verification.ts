import { dashboardVerificationEndpoints } from '#shared/api/dashboard-verification.ts';
import { dashboardPage } from '#shared/http/dashboard-session.ts';
import { redirectTo } from '#shared/http/page-handler.ts';
import { startOwnVerification } from '#shared/operations/compliance-verifications.ts';
import { dashboardUrl } from '#shared/pages/dashboard-url.ts';

export const handler = dashboardPage(
  dashboardVerificationEndpoints.startDashboardVerification,
  async (request, member) => {
    const verification = await startOwnVerification(member, request.baseUrl);
    return redirectTo(dashboardUrl(request, `/verification/${verification.id}`));
  },
);
