import { dashboardEndpoints } from '#shared/api/dashboard.ts';
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
  dashboardEndpoints.submitSignUpPage,
  withoutSession(async (request) => {
    const { firstName, lastName, businessName, activityId, storeName } = request.fields;
    const form: SignUpForm = { firstName, lastName, businessName, activityId, storeName };
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
