import { isFollowableReturnUrl } from '#shared/domain/return-urls.ts';
import { htmlPage, pageHandler, redirectTo } from '#shared/http/page-handler.ts';
import { completeVerification, verificationById } from '#shared/operations/compliance-verifications.ts';
import { identityDetails, missingIdentityFields, verificationPage } from '#shared/pages/verification-page.ts';

export const handler = pageHandler('submitSandboxVerificationPage', async (request) => {
  const id = request.params.id ?? '';
  const missing = missingIdentityFields(request.form);
  if (missing.length > 0) {
    const verification = await verificationById(id);
    return htmlPage(verificationPage(verification, request, { form: request.form, missing }), 400);
  }
  const completed = await completeVerification(id, identityDetails(request.form));
  if (isFollowableReturnUrl(completed.callbackUrl)) {
    // The integration learns the outcome from its event; the address only says which one to look at.
    const target = new URL(completed.callbackUrl);
    target.searchParams.set('verificationId', completed.id);
    target.searchParams.set('status', completed.status);
    return redirectTo(target.href);
  }
  return htmlPage(verificationPage(completed, request));
});
