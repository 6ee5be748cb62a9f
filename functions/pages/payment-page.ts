import { htmlPage, pageHandler } from '#shared/http/page-handler.ts';
import { hostedPaymentRequest } from '#shared/operations/hosted-payment.ts';
import { paymentPage } from '#shared/pages/payment-page.ts';

export const handler = pageHandler('paymentPage', async (request) =>
  htmlPage(
    paymentPage(await hostedPaymentRequest(request.params.id ?? ''), request, {
      form: { payerCountry: request.query.country },
    }),
  ),
);
