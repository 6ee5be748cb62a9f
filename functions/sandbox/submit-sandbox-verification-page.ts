import { htmlPage, pageHandler, redirectTo } from '#shared/http/page-handler.ts';
import {
  completeVerification,
  verificationById,
  verificationCallbackTarget,
} from '#shared/operations/compliance-verifications.ts';
import { identityDetails, missingIdentityFields, verificationPage } from '#shared/pages/verification-page.ts';

export const handler = pageHandler('submitSandboxVerificationPage', async (request) => {
  const id = request.params.id ?? '';
  const missing = missingIdentityFields(request.form);
  if (missing.length > 0) {
    const verification = await verificationById(id);
    return htmlPage(verificationPage(verification, request, { form: request.form, missing }), 400);
  }
  const completed = await completeVerification(id, identityDetails(request.form));
  const target = verificationCallbackTarget(completed);
  if (target) return redirectTo(target);
  return htmlPage(verificationPage(completed, request));
});
