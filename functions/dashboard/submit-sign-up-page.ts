import {
  attemptIdOf,
  dashboardPageOptions,
  sessionCookie,
  withoutSession,
} from '#shared/http/dashboard-session.ts';
import { htmlPage, pageHandler, redirectTo } from '#shared/http/page-handler.ts';
import { pendingSignUp, type SignUpForm, signUp } from '#shared/operations/dashboard-sign-in.ts';
import { signUpPage } from '#shared/pages/dashboard-sign-in.ts';
import { dashboardUrl } from '#shared/pages/dashboard-url.ts';

export const handler = pageHandler(
  'submitSignUpPage',
  withoutSession(async (request) => {
    const form: SignUpForm = {
      firstName: request.form.firstName ?? '',
      lastName: request.form.lastName ?? '',
      businessName: request.form.businessName ?? '',
      activityId: request.form.activityId ?? '',
      storeName: request.form.storeName ?? '',
    };
    const attemptId = attemptIdOf(request);
    const answer = await signUp(attemptId, form, new Date(), request.sourceIp);
    if (answer.outcome === 'signed_up') {
      return redirectTo(dashboardUrl(request), sessionCookie(answer.sessionId, request.baseUrl));
    }
    // The verified phone may have lapsed between the two reads: then back to the first step.
    const pending = answer.outcome === 'invalid' ? await pendingSignUp(attemptId) : undefined;
    if (answer.outcome === 'ended' || !pending) return redirectTo(dashboardUrl(request, '/sign-in'));
    return htmlPage(signUpPage({ ...request, phone: pending.phone }, form, answer.fields), 400);
  }),
  dashboardPageOptions,
);
