import { htmlPage, pageHandler, redirectTo } from '#shared/http/page-handler.ts';
import { viewSandboxCheckout } from '#shared/operations/sandbox-checkout.ts';
import { sandboxCheckoutPage } from '#shared/pages/sandbox-checkout-page.ts';

export const handler = pageHandler('sandboxCheckoutPage', async (request) => {
  const view = await viewSandboxCheckout(request.params.providerReference ?? '');
  return view.outcome === 'answered'
    ? redirectTo(view.returnUrl)
    : htmlPage(sandboxCheckoutPage(view.checkout, request));
});
