import { dashboardVerificationEndpoints } from '#shared/api/dashboard-verification.ts';
import { dashboardPage, dashboardPageOptions } from '#shared/http/dashboard-session.ts';
import { htmlPage, redirectTo } from '#shared/http/page-handler.ts';
import { smileIdWebScriptUrl } from '#shared/identity/smile-id.ts';
import {
  startDocumentCheck,
  vendorProblemOf,
  verificationOfMember,
  verificationPageUrl,
  verificationPageView,
} from '#shared/operations/compliance-verifications.ts';
import { ownUrl } from '#shared/pages/payment-page.ts';
import {
  documentCapturePage,
  documentCheckContentSecurityPolicy,
  verificationPage,
} from '#shared/pages/verification-page.ts';

/**
 * The owner starts Smile ID's document + selfie check: a web token for a job of its own, then the
 * page that runs Smile ID's script with it. This page alone may load that script (its policy names
 * the script's origin); a check no longer pending goes back to its page.
 */
export const handler = dashboardPage(
  dashboardVerificationEndpoints.startDashboardDocumentCheck,
  async (request, member, session) => {
    const verification = await verificationOfMember(member, request.params.id ?? '');
    let started: Awaited<ReturnType<typeof startDocumentCheck>>;
    try {
      started = await startDocumentCheck(verification.id, request.baseUrl);
    } catch (error) {
      const vendorProblem = vendorProblemOf(error);
      if (!vendorProblem) throw error;
      const view = await verificationPageView(verification.id, verification);
      const filled = { csrfToken: session.csrfToken, vendorProblem };
      return htmlPage(verificationPage(view, request, filled), vendorProblem === 'refused' ? 422 : 503);
    }
    if (!started.session)
      return redirectTo(ownUrl(verificationPageUrl(request.baseUrl, verification.id), request));
    const view = await verificationPageView(verification.id, started.verification);
    return htmlPage(documentCapturePage(view, request, started.session));
  },
  {
    headers: {
      ...dashboardPageOptions.headers,
      'content-security-policy': documentCheckContentSecurityPolicy(smileIdWebScriptUrl()),
    },
  },
);
