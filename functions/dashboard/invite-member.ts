import { invitationIdOf } from '#shared/data/invitation.ts';
import { dashboardPageOptions, withSession } from '#shared/http/dashboard-session.ts';
import { htmlPage, pageHandler, redirectTo } from '#shared/http/page-handler.ts';
import { type InvitationForm, inviteMember, teamOf } from '#shared/operations/team.ts';
import { withNotice } from '#shared/pages/dashboard-confirmation.ts';
import { teamPage } from '#shared/pages/dashboard-team.ts';
import { dashboardUrl } from '#shared/pages/dashboard-url.ts';

export const handler = pageHandler(
  'inviteMember',
  withSession(async (request, session) => {
    const form: InvitationForm = {
      firstName: request.form.firstName ?? '',
      lastName: request.form.lastName ?? '',
      phone: request.form.phone ?? '',
      role: request.form.role ?? '',
      phoneCountry: request.form.phoneCountry,
    };
    const signInUrl = dashboardUrl({ ...request, languagePinned: true }, '/sign-in');
    const answer = await inviteMember(session, form, {
      signInUrl,
      language: request.language,
      sourceIp: request.sourceIp,
    });
    if (answer.outcome === 'invited')
      return redirectTo(
        withNotice(dashboardUrl(request, '/team'), 'invited', invitationIdOf(answer.invitation)),
      );
    const page = { ...request, csrfToken: session.csrfToken, ...(await teamOf(session)) };
    if (answer.outcome === 'invalid') return htmlPage(teamPage(page, { form, invalid: answer.fields }), 400);
    return htmlPage(teamPage(page, { form, notice: answer.outcome }), 409);
  }),
  dashboardPageOptions,
);
