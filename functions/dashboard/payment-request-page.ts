import { dashboardPageOptions, withSession } from '#shared/http/dashboard-session.ts';
import { htmlPage, pageHandler } from '#shared/http/page-handler.ts';
import { requireAction } from '#shared/operations/dashboard-access.ts';
import { askedRequestOf } from '#shared/operations/dashboard-payment-requests.ts';
import { requestPage } from '#shared/pages/dashboard-payment-requests.ts';

export const handler = pageHandler(
  'paymentRequestPage',
  withSession(async (request, session) => {
    const member = await requireAction(session, 'read');
    const asked = await askedRequestOf(member, request.params.requestId ?? '');
    const attempt = Number.parseInt(request.query.attempt ?? '0', 10);
    return htmlPage(requestPage(request, asked, Number.isSafeInteger(attempt) && attempt > 0 ? attempt : 0));
  }),
  dashboardPageOptions,
);
