import { dashboardPageOptions, withSession } from '#shared/http/dashboard-session.ts';
import { htmlPage, pageHandler } from '#shared/http/page-handler.ts';
import { requireAction } from '#shared/operations/dashboard-access.ts';
import { linkOf } from '#shared/operations/dashboard-payment-links.ts';
import { cardContentSecurityPolicy, linkCardPage } from '#shared/pages/dashboard-link-card.ts';
import { linkText, payerUrl } from '#shared/pages/dashboard-payment-links.ts';
import { inlineQr } from '#shared/pages/qr-code.ts';

export const handler = pageHandler(
  'paymentLinkCardPage',
  withSession(async (request, session) => {
    const member = await requireAction(session, 'read');
    const link = await linkOf(member, request.params.linkId ?? '');
    const qr = await inlineQr(
      payerUrl(request.baseUrl, link),
      linkText[request.language].qrLabel(link.title),
      240,
    );
    return htmlPage(linkCardPage(request, link, qr));
  }),
  { headers: { ...dashboardPageOptions.headers, 'content-security-policy': cardContentSecurityPolicy } },
);
