import { dashboardPaymentLinkEndpoints } from '#shared/api/dashboard-payment-links.ts';
import { dashboardPage } from '#shared/http/dashboard-session.ts';
import { htmlPage } from '#shared/http/page-handler.ts';
import { storesOf } from '#shared/operations/dashboard-payment-links.ts';
import { newLinkPage } from '#shared/pages/dashboard-payment-links.ts';

export const handler = dashboardPage(
  dashboardPaymentLinkEndpoints.newPaymentLinkPage,
  async (request, member, session) => {
    return htmlPage(
      newLinkPage({
        ...request,
        pageUrl: `${request.baseUrl}/dashboard/payment-links/new`,
        csrfToken: session.csrfToken,
        stores: await storesOf(member),
      }),
    );
  },
);
