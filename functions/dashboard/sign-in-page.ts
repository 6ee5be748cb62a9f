import { dashboardPageOptions, withoutSession } from '#shared/http/dashboard-session.ts';
import { htmlPage, pageHandler } from '#shared/http/page-handler.ts';
import { phonePage } from '#shared/pages/dashboard-sign-in.ts';
import { phoneCountryOf } from '#shared/pages/phone-country.ts';

export const handler = pageHandler(
  'signInPage',
  withoutSession(async (request) =>
    htmlPage(
      phonePage(request, {
        // The browser's language region (`fr-SN`) says which country's numbers to expect.
        country: phoneCountryOf(undefined, { acceptLanguage: request.headers['accept-language'] }),
      }),
    ),
  ),
  dashboardPageOptions,
);
