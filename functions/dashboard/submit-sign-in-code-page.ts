import { dashboardEndpoints } from '#shared/api/dashboard.ts';
import {
  attemptIdOf,
  dashboardPageOptions,
  sessionCookie,
  withoutSession,
} from '#shared/http/dashboard-session.ts';
import { htmlPage, pageHandler, redirectTo } from '#shared/http/page-handler.ts';
import { submitSignInCode } from '#shared/operations/dashboard-sign-in.ts';
import { codePage } from '#shared/pages/dashboard-sign-in.ts';
import { dashboardUrl } from '#shared/pages/dashboard-url.ts';

export const handler = pageHandler(
  dashboardEndpoints.submitSignInCodePage,
  withoutSession(async (request) => {
    const answer = await submitSignInCode(
      attemptIdOf(request),
      request.fields.code,
      new Date(),
      request.sourceIp,
    );
    if (answer.outcome === 'signed_in') {
      return redirectTo(dashboardUrl(request), sessionCookie(answer.sessionId, request.baseUrl));
    }
    if (answer.outcome === 'sign_up') return redirectTo(dashboardUrl(request, '/sign-up'));
    const error =
      answer.outcome === 'wrong'
        ? { kind: answer.outcome, triesLeft: answer.triesLeft }
        : { kind: answer.outcome };
    return htmlPage(codePage(request, error), 400);
  }),
  dashboardPageOptions,
);
