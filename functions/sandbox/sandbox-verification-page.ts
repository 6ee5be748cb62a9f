import { pageHandler, redirectTo } from '#shared/http/page-handler.ts';
import { verificationById } from '#shared/operations/compliance-verifications.ts';
import { ownUrl } from '#shared/pages/payment-page.ts';

/** The identity check moved to the dashboard: links handed out before still lead to it. */
export const handler = pageHandler('sandboxVerificationPage', async (request) => {
  const verification = await verificationById(request.params.id ?? '');
  return redirectTo(ownUrl(`${request.baseUrl}/dashboard/verification/${verification.id}`, request));
});
