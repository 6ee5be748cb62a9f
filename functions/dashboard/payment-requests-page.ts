import { dashboardPaymentRequestEndpoints } from '#shared/api/dashboard-payment-requests.ts';
import { roleAllows } from '#shared/domain/dashboard-roles.ts';
import { dashboardPage } from '#shared/http/dashboard-session.ts';
import { htmlPage } from '#shared/http/page-handler.ts';
import { askPageData } from '#shared/operations/dashboard-payment-requests.ts';
import { askPage } from '#shared/pages/dashboard-payment-requests.ts';

export const handler = dashboardPage(
  dashboardPaymentRequestEndpoints.paymentRequestsPage,
  async (request, member, session) => {
    return htmlPage(
      askPage({
        ...request,
        ...(await askPageData(member)),
        csrfToken: session.csrfToken,
        canAsk: roleAllows(member.role, 'requestPayment'),
      }),
    );
  },
);
