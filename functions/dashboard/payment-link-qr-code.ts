import { dashboardPaymentLinkEndpoints } from '#shared/api/dashboard-payment-links.ts';
import { dashboardPage } from '#shared/http/dashboard-session.ts';
import { linkOf } from '#shared/operations/dashboard-payment-links.ts';
import { payerUrl } from '#shared/pages/dashboard-payment-links.ts';
import { qrPng, qrSvg } from '#shared/pages/qr-code.ts';

export const handler = dashboardPage(
  dashboardPaymentLinkEndpoints.paymentLinkQrCode,
  async (request, member) => {
    const link = await linkOf(member, request.params.linkId ?? '');
    const url = payerUrl(request.baseUrl, link);
    const fileName = `lien-${link.id.slice(0, 8)}`;
    return request.query.format === 'png'
      ? { download: { body: await qrPng(url), contentType: 'image/png', fileName: `${fileName}.png` } }
      : { download: { body: await qrSvg(url), contentType: 'image/svg+xml', fileName: `${fileName}.svg` } };
  },
);
