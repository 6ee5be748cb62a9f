import { dashboardPageOptions, withSession } from '#shared/http/dashboard-session.ts';
import { htmlPage, pageHandler } from '#shared/http/page-handler.ts';
import { requireAction } from '#shared/operations/dashboard-access.ts';
import { storesOf } from '#shared/operations/dashboard-payment-links.ts';
import { newLinkPage } from '#shared/pages/dashboard-payment-links.ts';

export const handler = pageHandler(
  'newPaymentLinkPage',
  withSession(async (request, session) => {
    const member = await requireAction(session, 'manageLinks');
    return htmlPage(
      newLinkPage({
        ...request,
        pageUrl: `${request.baseUrl}/dashboard/payment-links/new`,
        csrfToken: session.csrfToken,
        stores: await storesOf(member),
      }),
    );
  }),
  dashboardPageOptions,
);
