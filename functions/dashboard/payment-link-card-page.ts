import { dashboardPaymentLinkEndpoints } from '#shared/api/dashboard-payment-links.ts';
import { dashboardPage, dashboardPageOptions } from '#shared/http/dashboard-session.ts';
import { htmlPage } from '#shared/http/page-handler.ts';
import { linkOf } from '#shared/operations/dashboard-payment-links.ts';
import { cardContentSecurityPolicy, linkCardPage } from '#shared/pages/dashboard-link-card.ts';
import { linkText, payerUrl } from '#shared/pages/dashboard-payment-links.ts';
import { inlineQr } from '#shared/pages/qr-code.ts';

export const handler = dashboardPage(
  dashboardPaymentLinkEndpoints.paymentLinkCardPage,
  async (request, member) => {
    const link = await linkOf(member, request.params.linkId ?? '');
    const qr = await inlineQr(
      payerUrl(request.baseUrl, link),
      linkText[request.language].qrLabel(link.title),
      240,
    );
    return htmlPage(linkCardPage(request, link, qr));
  },
  { headers: { ...dashboardPageOptions.headers, 'content-security-policy': cardContentSecurityPolicy } },
);
