import { htmlPage, pageHandler, redirectTo } from '#shared/http/page-handler.ts';
import {
  completeVerification,
  verificationCallbackTarget,
  verificationPageView,
} from '#shared/operations/compliance-verifications.ts';
import { checkIdentityForm, verificationPage } from '#shared/pages/verification-page.ts';

/** Forms opened before the identity check moved to the dashboard still post here. */
export const handler = pageHandler('submitSandboxVerificationPage', async (request) => {
  const id = request.params.id ?? '';
  const checked = checkIdentityForm(request.form);
  if ('errors' in checked) {
    const view = await verificationPageView(id);
    return htmlPage(verificationPage(view, request, { form: request.form, errors: checked.errors }), 400);
  }
  const completed = await completeVerification(id, checked.details, request.baseUrl);
  const target = verificationCallbackTarget(completed);
  if (target) return redirectTo(target);
  return htmlPage(verificationPage(await verificationPageView(id, completed), request));
});
