import { dashboardVerificationEndpoints } from '#shared/api/dashboard-verification.ts';
import { dashboardPage } from '#shared/http/dashboard-session.ts';
import { htmlPage } from '#shared/http/page-handler.ts';
import { verificationOfMember, verificationPageView } from '#shared/operations/compliance-verifications.ts';
import { verificationPage } from '#shared/pages/verification-page.ts';

export const handler = dashboardPage(
  dashboardVerificationEndpoints.dashboardVerificationPage,
  async (request, member, session) => {
    const verification = await verificationOfMember(member, request.params.id ?? '');
    const view = await verificationPageView(verification.id, verification);
    return htmlPage(verificationPage(view, request, { csrfToken: session.csrfToken }));
  },
);
