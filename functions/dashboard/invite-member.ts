import { dashboardTeamEndpoints } from '#shared/api/dashboard-team.ts';
import { invitationIdOf } from '#shared/data/invitation.ts';
import { dashboardPage } from '#shared/http/dashboard-session.ts';
import { htmlPage, redirectTo } from '#shared/http/page-handler.ts';
import { type InvitationForm, inviteMember, teamOf } from '#shared/operations/team.ts';
import { withNotice } from '#shared/pages/dashboard-confirmation.ts';
import { teamPage } from '#shared/pages/dashboard-team.ts';
import { dashboardUrl } from '#shared/pages/dashboard-url.ts';

export const handler = dashboardPage(
  dashboardTeamEndpoints.inviteMember,
  async (request, member, session) => {
    const form: InvitationForm = {
      firstName: request.fields.firstName,
      lastName: request.fields.lastName,
      phone: request.fields.phone,
      role: request.fields.role ?? '',
      phoneCountry: request.fields.phoneCountry,
    };
    const signInUrl = dashboardUrl({ ...request, languagePinned: true }, '/sign-in');
    const answer = await inviteMember(member, form, {
      signInUrl,
      language: request.language,
      sourceIp: request.sourceIp,
    });
    if (answer.outcome === 'invited')
      return redirectTo(
        withNotice(dashboardUrl(request, '/team'), 'invited', invitationIdOf(answer.invitation)),
      );
    const page = { ...request, csrfToken: session.csrfToken, ...(await teamOf(member)) };
    if (answer.outcome === 'invalid') return htmlPage(teamPage(page, { form, invalid: answer.fields }), 400);
    return htmlPage(teamPage(page, { form, notice: answer.outcome }), 409);
  },
);
