import { htmlPage, pageHandler, redirectTo } from '#shared/http/page-handler.ts';
import { answerSandboxCheckout } from '#shared/operations/sandbox-checkout.ts';
import { sandboxCheckoutPage } from '#shared/pages/sandbox-checkout-page.ts';

export const handler = pageHandler('sandboxCheckoutAction', async (request) => {
  const { action, payerPhone } = request.form;
  const answer = await answerSandboxCheckout(request.params.providerReference ?? '', action, payerPhone);
  return answer.outcome === 'answered'
    ? redirectTo(answer.returnUrl)
    : htmlPage(sandboxCheckoutPage(answer.checkout, request, { payerPhone: answer.payerPhone }), 400);
});
