import { enum as enumOf, globalRegistry, object, optional, string } from 'zod/mini';
import { csrf, dashboardQuery, forbidden } from '#shared/api/dashboard.ts';
import { endpointsIn } from '#shared/api/endpoint.ts';
import { text } from '#shared/api/form-fields.ts';
import { memberRoles } from '#shared/domain/dashboard-roles.ts';

/**
 * The dashboard's team and businesses (issue 25, items 3 to 5): members and their roles,
 * invitations, switching business, sign-out everywhere, and the owner's identity check. Every
 * signed-in post carries the session's CSRF token and comes from the site's own Origin; the
 * acting member's role is asked on the server before anything changes.
 */
const tag = 'Dashboard';
const notAForm = 'A body that is not a form.';
const role = optional(enumOf(memberRoles)).register(globalRegistry, { description: 'A dashboard role.' });
const memberPathParams = object({ memberId: string() });
const invitationPathParams = object({
  invitationId: string().register(globalRegistry, { description: 'As the team page links it.' }),
});
const refused = 'The acting member’s role does not allow it (`forbidden_action`): nothing changes.';
const signedOut = 'No session: to the sign-in page; no business chosen: to the businesses page.';

export const dashboardTeamEndpoints = /* @__PURE__ */ endpointsIn('dashboard', {
  teamPage: {
    method: 'GET',
    path: '/dashboard/team',
    caller: 'public',
    permission: 'read',
    access: ['table:GetItem', 'table:Query', 'table:UpdateItem'],
    page: true,
    tag,
    summary: 'The team: members (name, masked phone, role), pending invitations, the invitation form',
    query: object({
      lang: dashboardQuery.shape.lang,
      invited: optional(string()).register(globalRegistry, {
        description: 'An invitation just sent (its id): the page says to whom, and until when.',
      }),
      done: optional(enumOf(['removed', 'cancelled', 'roleChanged'])).register(globalRegistry, {
        description: 'What was just done, said at the top.',
      }),
    }),
    answers: { 200: 'The team.', 303: signedOut },
  },
  inviteMember: {
    method: 'POST',
    path: '/dashboard/team/invitations',
    caller: 'public',
    permission: 'manageTeam',
    access: ['table:GetItem', 'table:PutItem', 'table:Query', 'table:UpdateItem'],
    page: true,
    tag,
    summary: 'Invite a phone with a role (an SMS with the way in; valid 7 days)',
    query: dashboardQuery,
    form: object({
      csrf,
      firstName: text(),
      lastName: text(),
      phone: text(),
      /** The country a national number is read in (`SN`); the business's when left out. */
      phoneCountry: optional(string()),
      role,
    }),
    answers: {
      303: 'Invited: to the team page, which says to whom the invitation went.',
      400: 'The team page again, with the form’s errors.',
      403: `${forbidden} Or: ${refused}`,
      409: 'Already a member, or too many pending invitations: the team page with the reason.',
    },
  },
  confirmCancelInvitation: {
    method: 'GET',
    path: '/dashboard/team/invitations/{invitationId}/cancel',
    caller: 'public',
    access: ['table:GetItem', 'table:Query', 'table:UpdateItem'],
    page: true,
    tag,
    summary: 'Ask before cancelling a pending invitation: whom, and that its link stops working',
    permission: 'manageTeam',
    params: invitationPathParams,
    query: dashboardQuery,
    answers: {
      200: 'The confirmation.',
      303: signedOut,
      403: refused,
      404: 'No such pending invitation in the business acted for (accepted, cancelled, replaced or expired).',
    },
  },
  cancelInvitation: {
    method: 'POST',
    path: '/dashboard/team/invitations/{invitationId}/cancel',
    caller: 'public',
    access: ['table:DeleteItem', 'table:GetItem', 'table:PutItem', 'table:Query', 'table:UpdateItem'],
    page: true,
    tag,
    summary: 'Cancel a pending invitation: its SMS link no longer lets the phone join (audited)',
    permission: 'manageTeam',
    params: invitationPathParams,
    query: dashboardQuery,
    form: object({ csrf }),
    answers: {
      303: 'Cancelled: to the team page, saying so.',
      400: notAForm,
      403: `${forbidden} Or: ${refused}`,
      404: 'No such pending invitation in the business acted for.',
      409: 'Accepted or sent again meanwhile: the team page, saying nothing was cancelled.',
    },
  },
  changeMemberRole: {
    method: 'POST',
    path: '/dashboard/team/members/{memberId}/role',
    caller: 'public',
    permission: 'manageTeam',
    access: [
      'table:ConditionCheckItem',
      'table:DeleteItem',
      'table:GetItem',
      'table:PutItem',
      'table:Query',
      'table:UpdateItem',
    ],
    page: true,
    tag,
    summary: 'Give a member another role (only owners make or unmake owners)',
    params: memberPathParams,
    query: dashboardQuery,
    form: object({ csrf, role }),
    answers: {
      400: notAForm,
      303: 'Changed: to the team page, saying so.',
      403: `${forbidden} Or: ${refused}`,
      404: 'No such member in the business acted for.',
      409: 'The business’s last owner keeps the role.',
    },
  },
  confirmRemoveMember: {
    method: 'GET',
    path: '/dashboard/team/members/{memberId}/remove',
    caller: 'public',
    access: ['table:GetItem', 'table:Query', 'table:UpdateItem'],
    page: true,
    tag,
    summary: 'Ask before removing a member: who, and what they lose',
    permission: 'manageTeam',
    params: memberPathParams,
    query: dashboardQuery,
    answers: {
      200: 'The confirmation.',
      303: signedOut,
      403: refused,
      404: 'No such member in the business acted for.',
    },
  },
  removeMember: {
    method: 'POST',
    path: '/dashboard/team/members/{memberId}/remove',
    caller: 'public',
    permission: 'manageTeam',
    access: [
      'table:ConditionCheckItem',
      'table:DeleteItem',
      'table:GetItem',
      'table:PutItem',
      'table:Query',
      'table:UpdateItem',
    ],
    page: true,
    tag,
    summary: 'Remove a member from the business (only owners remove owners)',
    params: memberPathParams,
    query: dashboardQuery,
    form: object({ csrf }),
    answers: {
      400: notAForm,
      303: 'Removed: to the team page, saying so.',
      403: `${forbidden} Or: ${refused}`,
      404: 'No such member in the business acted for.',
      409: 'The business’s last owner cannot be removed.',
    },
  },
  businessesPage: {
    method: 'GET',
    path: '/dashboard/businesses',
    caller: 'public',
    access: ['table:GetItem', 'table:Query', 'table:UpdateItem'],
    page: true,
    tag,
    summary: 'The businesses the signed-in person belongs to, to choose the one to act for',
    query: dashboardQuery,
    answers: { 200: 'The businesses, each with the person’s role.', 303: 'No session: to the sign-in page.' },
  },
  chooseBusiness: {
    method: 'POST',
    path: '/dashboard/businesses',
    caller: 'public',
    access: ['table:GetItem', 'table:Query', 'table:UpdateItem'],
    page: true,
    tag,
    summary: 'Act for another of one’s businesses',
    query: dashboardQuery,
    form: object({
      csrf,
      businessId: text().register(globalRegistry, { description: 'One of the person’s businesses.' }),
    }),
    answers: {
      400: notAForm,
      303: 'To the dashboard of the business chosen.',
      403: forbidden,
      404: 'Not one of the person’s businesses: the session keeps its choice.',
    },
  },
  signOutEverywhere: {
    method: 'POST',
    path: '/dashboard/sign-out-everywhere',
    caller: 'public',
    access: ['table:DeleteItem', 'table:GetItem', 'table:Query', 'table:UpdateItem'],
    page: true,
    tag,
    summary: 'End every session of the signed-in person, on every device',
    query: dashboardQuery,
    form: object({ csrf }),
    answers: {
      400: notAForm,
      303: 'To the sign-in page, every session deleted.',
      403: forbidden,
    },
  },
});
