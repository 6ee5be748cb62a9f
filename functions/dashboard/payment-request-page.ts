import { dashboardPaymentRequestEndpoints } from '#shared/api/dashboard-payment-requests.ts';
import { dashboardPage } from '#shared/http/dashboard-session.ts';
import { htmlPage } from '#shared/http/page-handler.ts';
import { askedRequestOf } from '#shared/operations/dashboard-payment-requests.ts';
import { requestPage } from '#shared/pages/dashboard-payment-requests.ts';

export const handler = dashboardPage(
  dashboardPaymentRequestEndpoints.paymentRequestPage,
  async (request, member) => {
    const asked = await askedRequestOf(member, request.params.requestId ?? '');
    const attempt = Number.parseInt(request.query.attempt ?? '0', 10);
    return htmlPage(requestPage(request, asked, Number.isSafeInteger(attempt) && attempt > 0 ? attempt : 0));
  },
);
