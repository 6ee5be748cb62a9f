import { dashboardEndpoints } from '#shared/api/dashboard.ts';
import { attemptCookie, dashboardPageOptions, withoutSession } from '#shared/http/dashboard-session.ts';
import { htmlPage, pageHandler, redirectTo } from '#shared/http/page-handler.ts';
import { requestSignInCode } from '#shared/operations/dashboard-sign-in.ts';
import { phonePage } from '#shared/pages/dashboard-sign-in.ts';
import { dashboardUrl } from '#shared/pages/dashboard-url.ts';
import { phoneCountryOf } from '#shared/pages/phone-country.ts';

export const handler = pageHandler(
  dashboardEndpoints.submitSignInPage,
  withoutSession(async (request) => {
    const { phone, phoneCountry } = request.fields;
    const country = phoneCountryOf(phoneCountry, {
      acceptLanguage: request.headers['accept-language'],
    });
    const answer = await requestSignInCode(phone, request.sourceIp, new Date(), request.language, country);
    if (answer.outcome === 'sent') {
      return redirectTo(
        dashboardUrl(request, '/sign-in/code'),
        attemptCookie(answer.attemptId, request.baseUrl),
      );
    }
    if (answer.outcome === 'invalid_phone')
      return htmlPage(phonePage(request, { phone, country, error: 'invalid' }), 400);
    const error = answer.limit === 'stage' ? 'limited_stage' : 'limited';
    return htmlPage(phonePage(request, { phone, country, error }), 429);
  }),
  dashboardPageOptions,
);
