import { htmlPage, pageHandler, redirectTo } from '#shared/http/page-handler.ts';
import { afterProvider } from '#shared/operations/hosted-payment.ts';
import { receiptTimeZone } from '#shared/operations/receipt-time-zone.ts';
import { ownUrl, paymentPage, paymentPageUrl, waitingPage } from '#shared/pages/payment-page.ts';

export const handler = pageHandler('paymentReturnPage', async (request) => {
  const id = request.params.id ?? '';
  const destination = await afterProvider(id);
  switch (destination.outcome) {
    case 'wait': {
      const attempt = Math.max(0, Number.parseInt(request.query.attempt ?? '', 10) || 0);
      return htmlPage(waitingPage(destination.request, request, attempt));
    }
    case 'merchant':
      return redirectTo(destination.url);
    case 'form':
      return redirectTo(ownUrl(paymentPageUrl(request.baseUrl, id), request));
    case 'outcome':
      return htmlPage(
        paymentPage(destination.request, {
          ...request,
          timeZone: await receiptTimeZone(destination.request),
        }),
      );
  }
});
