import { dashboardPageOptions, withSession } from '#shared/http/dashboard-session.ts';
import { htmlPage, pageHandler, redirectTo } from '#shared/http/page-handler.ts';
import {
  completeVerification,
  verificationCallbackTarget,
  verificationOfMember,
} from '#shared/operations/compliance-verifications.ts';
import { requireAction } from '#shared/operations/dashboard-access.ts';
import { identityDetails, missingIdentityFields, verificationPage } from '#shared/pages/verification-page.ts';

export const handler = pageHandler(
  'submitDashboardVerificationPage',
  withSession(async (request, session) => {
    const member = await requireAction(session, 'verify');
    const verification = await verificationOfMember(member, request.params.id ?? '');
    const missing = missingIdentityFields(request.form);
    if (missing.length > 0) {
      const filled = { form: request.form, missing, csrfToken: session.csrfToken };
      return htmlPage(verificationPage(verification, request, filled), 400);
    }
    const completed = await completeVerification(verification.id, identityDetails(request.form));
    const target = verificationCallbackTarget(completed);
    if (target) return redirectTo(target);
    return htmlPage(verificationPage(completed, request));
  }),
  dashboardPageOptions,
);
