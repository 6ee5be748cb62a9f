import { dashboardVerificationEndpoints } from '#shared/api/dashboard-verification.ts';
import { dashboardPage } from '#shared/http/dashboard-session.ts';
import { htmlPage, redirectTo } from '#shared/http/page-handler.ts';
import {
  completeVerification,
  vendorProblemOf,
  verificationCallbackTarget,
  verificationOfMember,
  verificationPageView,
} from '#shared/operations/compliance-verifications.ts';
import { checkIdentityForm, verificationPage } from '#shared/pages/verification-page.ts';

export const handler = dashboardPage(
  dashboardVerificationEndpoints.submitDashboardVerificationPage,
  async (request, member, session) => {
    const verification = await verificationOfMember(member, request.params.id ?? '');
    const checked = checkIdentityForm(request.fields);
    if ('errors' in checked) {
      const filled = { form: request.fields, errors: checked.errors, csrfToken: session.csrfToken };
      return htmlPage(
        verificationPage(await verificationPageView(verification.id, verification), request, filled),
        400,
      );
    }
    let completed: Awaited<ReturnType<typeof completeVerification>>;
    try {
      completed = await completeVerification(verification.id, checked.details, request.baseUrl);
    } catch (error) {
      const vendorProblem = vendorProblemOf(error);
      if (!vendorProblem) throw error;
      const filled = { form: request.fields, csrfToken: session.csrfToken, vendorProblem };
      const view = await verificationPageView(verification.id, verification);
      return htmlPage(verificationPage(view, request, filled), vendorProblem === 'refused' ? 422 : 503);
    }
    const target = verificationCallbackTarget(completed);
    if (target) return redirectTo(target);
    return htmlPage(verificationPage(await verificationPageView(completed.id, completed), request));
  },
);
