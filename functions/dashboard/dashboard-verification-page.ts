import { dashboardPageOptions, withSession } from '#shared/http/dashboard-session.ts';
import { htmlPage, pageHandler } from '#shared/http/page-handler.ts';
import { verificationOfMember, verificationPageView } from '#shared/operations/compliance-verifications.ts';
import { requireAction } from '#shared/operations/dashboard-access.ts';
import { verificationPage } from '#shared/pages/verification-page.ts';

export const handler = pageHandler(
  'dashboardVerificationPage',
  withSession(async (request, session) => {
    const member = await requireAction(session, 'verify');
    const verification = await verificationOfMember(member, request.params.id ?? '');
    const view = await verificationPageView(verification.id, verification);
    return htmlPage(verificationPage(view, request, { csrfToken: session.csrfToken }));
  }),
  dashboardPageOptions,
);
