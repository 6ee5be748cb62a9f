import { isFollowableReturnUrl } from '#shared/domain/return-urls.ts';
import { htmlPage, pageHandler, redirectTo } from '#shared/http/page-handler.ts';
import { completeVerification, verificationPageView } from '#shared/operations/compliance-verifications.ts';
import { checkIdentityForm, verificationPage } from '#shared/pages/verification-page.ts';

export const handler = pageHandler('submitSandboxVerificationPage', async (request) => {
  const id = request.params.id ?? '';
  const checked = checkIdentityForm(request.form);
  if ('errors' in checked) {
    const view = await verificationPageView(id);
    return htmlPage(verificationPage(view, request, { form: request.form, errors: checked.errors }), 400);
  }
  const completed = await completeVerification(id, checked.details);
  if (isFollowableReturnUrl(completed.callbackUrl)) {
    // The integration learns the outcome from its event; the address only says which one to look at.
    const target = new URL(completed.callbackUrl);
    target.searchParams.set('verificationId', completed.id);
    target.searchParams.set('status', completed.status);
    return redirectTo(target.href);
  }
  return htmlPage(verificationPage(await verificationPageView(id, completed), request));
});
