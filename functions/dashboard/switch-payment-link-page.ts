import { dashboardPaymentLinkEndpoints } from '#shared/api/dashboard-payment-links.ts';
import { PaymentLinkAlreadyUsed } from '#shared/errors/payment-links.ts';
import { dashboardPage } from '#shared/http/dashboard-session.ts';
import { htmlPage, redirectTo } from '#shared/http/page-handler.ts';
import { linkOf, paymentsOfLink, switchLinkFor } from '#shared/operations/dashboard-payment-links.ts';
import { paymentLinkPageWithQr } from '#shared/pages/dashboard-payment-links.ts';
import { dashboardUrl } from '#shared/pages/dashboard-url.ts';

export const handler = dashboardPage(
  dashboardPaymentLinkEndpoints.switchPaymentLinkPage,
  async (request, member, session) => {
    const linkId = request.params.linkId ?? '';
    try {
      const link = await switchLinkFor(member, linkId, request.fields.active === 'true', request.sourceIp);
      return redirectTo(dashboardUrl(request, `/payment-links/${link.id}`));
    } catch (error) {
      if (!(error instanceof PaymentLinkAlreadyUsed)) throw error;
      // A paid single-use link: its page again, saying why it stays off.
      const link = await linkOf(member, linkId);
      const page = await paymentLinkPageWithQr({
        ...request,
        csrfToken: session.csrfToken,
        link,
        payments: await paymentsOfLink(link),
        canManage: true,
        alreadyUsed: true,
      });
      return htmlPage(page, 409);
    }
  },
);
