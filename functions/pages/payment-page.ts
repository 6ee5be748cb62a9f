import { htmlPage, pageHandler } from '#shared/http/page-handler.ts';
import { hostedPaymentRequest } from '#shared/operations/hosted-payment.ts';
import { receiptTimeZone } from '#shared/operations/receipt-time-zone.ts';
import { paymentPage } from '#shared/pages/payment-page.ts';
import { operatorsDownNow } from '#shared/providers/routing.ts';

export const handler = pageHandler('paymentPage', async (request) => {
  const payment = await hostedPaymentRequest(request.params.id ?? '');
  return htmlPage(
    paymentPage(
      payment,
      { ...request, timeZone: await receiptTimeZone(payment), operatorsDown: await operatorsDownNow() },
      {
        form: { payerCountry: request.query.country },
      },
    ),
  );
});
