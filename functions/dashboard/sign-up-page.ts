import { attemptIdOf, dashboardPageOptions, withoutSession } from '#shared/http/dashboard-session.ts';
import { htmlPage, pageHandler, redirectTo } from '#shared/http/page-handler.ts';
import { pendingSignUp } from '#shared/operations/dashboard-sign-in.ts';
import { signUpPage } from '#shared/pages/dashboard-sign-in.ts';
import { dashboardUrl } from '#shared/pages/dashboard-url.ts';

export const handler = pageHandler(
  'signUpPage',
  withoutSession(async (request) => {
    const pending = await pendingSignUp(attemptIdOf(request));
    if (!pending) return redirectTo(dashboardUrl(request, '/sign-in'));
    return htmlPage(signUpPage({ ...request, phone: pending.phone }));
  }),
  dashboardPageOptions,
);
