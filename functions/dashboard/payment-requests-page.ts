import { roleAllows } from '#shared/domain/dashboard-roles.ts';
import { dashboardPageOptions, withSession } from '#shared/http/dashboard-session.ts';
import { htmlPage, pageHandler } from '#shared/http/page-handler.ts';
import { requireAction } from '#shared/operations/dashboard-access.ts';
import { askPageData } from '#shared/operations/dashboard-payment-requests.ts';
import { askPage } from '#shared/pages/dashboard-payment-requests.ts';

export const handler = pageHandler(
  'paymentRequestsPage',
  withSession(async (request, session) => {
    const member = await requireAction(session, 'read');
    return htmlPage(
      askPage({
        ...request,
        ...(await askPageData(member)),
        csrfToken: session.csrfToken,
        canAsk: roleAllows(member.role, 'requestPayment'),
      }),
    );
  }),
  dashboardPageOptions,
);
