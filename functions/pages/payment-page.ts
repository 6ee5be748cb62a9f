import { htmlPage, pageHandler } from '#shared/http/page-handler.ts';
import { hostedPaymentRequest } from '#shared/operations/hosted-payment.ts';
import { paymentPage } from '#shared/pages/payment-page.ts';
import { paymentPageRoutes } from '#shared/routes.ts';

export const handler = pageHandler(paymentPageRoutes.paymentPage, async (request) =>
  htmlPage(paymentPage(await hostedPaymentRequest(request.params.id ?? ''), request)),
);
