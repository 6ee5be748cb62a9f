import { htmlPage, pageHandler, redirectTo } from '#shared/http/page-handler.ts';
import { payOnHostedPage } from '#shared/operations/hosted-payment.ts';
import { ownUrl, paymentPage, paymentPageUrl } from '#shared/pages/payment-page.ts';
import { operatorsDownNow } from '#shared/providers/routing.ts';

export const handler = pageHandler('submitPaymentPage', async (request) => {
  const id = request.params.id ?? '';
  const { paymentMethod, payerPhone, payerCountry } = request.form;
  const submitted = await payOnHostedPage(id, { paymentMethod, payerPhone, payerCountry }, request.baseUrl);
  switch (submitted.outcome) {
    case 'checkout':
      return redirectTo(submitted.checkoutUrl);
    case 'closed':
      return redirectTo(ownUrl(paymentPageUrl(request.baseUrl, id), request));
    case 'retry':
      return htmlPage(
        paymentPage(submitted.request, { ...request, operatorsDown: await operatorsDownNow() }, submitted),
        400,
      );
  }
});
