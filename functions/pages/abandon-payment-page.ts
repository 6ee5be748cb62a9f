import { htmlPage, pageHandler, redirectTo } from '#shared/http/page-handler.ts';
import { leaveHostedPage } from '#shared/operations/end-payment.ts';
import { receiptTimeZone } from '#shared/operations/receipt-time-zone.ts';
import { paymentPage } from '#shared/pages/payment-page.ts';

export const handler = pageHandler('abandonPaymentPage', async (request) => {
  const destination = await leaveHostedPage(request.params.id ?? '');
  return destination.outcome === 'merchant'
    ? redirectTo(destination.url)
    : htmlPage(
        paymentPage(destination.request, {
          ...request,
          timeZone: await receiptTimeZone(destination.request),
        }),
      );
});
