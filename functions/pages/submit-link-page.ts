import { attemptCookie, attemptTokenFrom } from '#shared/http/link-attempt-cookie.ts';
import { htmlPage, pageHandler, redirectTo } from '#shared/http/page-handler.ts';
import { payOnLinkPage } from '#shared/operations/link-page.ts';
import { linkPage, linkUnavailablePage } from '#shared/pages/link-page.ts';
import { operatorsDownNow } from '#shared/providers/routing.ts';

export const handler = pageHandler('submitLinkPage', async (request) => {
  const id = request.params.id ?? '';
  const { paymentMethod, payerPhone, payerCountry } = request.form;
  const submitted = await payOnLinkPage(
    id,
    { paymentMethod, payerPhone, payerCountry },
    attemptTokenFrom(request.headers.cookie),
    request.baseUrl,
    request.query.payment,
  );
  switch (submitted.outcome) {
    case 'checkout':
      return redirectTo(submitted.checkoutUrl, attemptCookie(id, submitted.attemptToken, request.baseUrl));
    case 'retry':
      return htmlPage(
        linkPage(
          { link: submitted.link, payment: submitted.payment },
          { ...request, operatorsDown: await operatorsDownNow() },
          submitted,
        ),
        400,
      );
    case 'unavailable':
      return htmlPage(linkUnavailablePage(submitted.link, request), 409);
  }
});
