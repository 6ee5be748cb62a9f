import { dashboardPageOptions, withSession } from '#shared/http/dashboard-session.ts';
import { htmlPage, pageHandler } from '#shared/http/page-handler.ts';
import { verificationOfMember } from '#shared/operations/compliance-verifications.ts';
import { requireAction } from '#shared/operations/dashboard-access.ts';
import { verificationPage } from '#shared/pages/verification-page.ts';

export const handler = pageHandler(
  'dashboardVerificationPage',
  withSession(async (request, session) => {
    const member = await requireAction(session, 'verify');
    const verification = await verificationOfMember(member, request.params.id ?? '');
    return htmlPage(verificationPage(verification, request, { csrfToken: session.csrfToken }));
  }),
  dashboardPageOptions,
);
