import { htmlPage, pageHandler } from '#shared/http/page-handler.ts';
import { verificationPageView } from '#shared/operations/compliance-verifications.ts';
import { verificationPage } from '#shared/pages/verification-page.ts';

export const handler = pageHandler('sandboxVerificationPage', async (request) =>
  htmlPage(verificationPage(await verificationPageView(request.params.id ?? ''), request)),
);
