import { type Invitation, invitationIdOf } from '#shared/data/invitation.ts';
import type { Member } from '#shared/data/member.ts';
import { type MemberRole, memberRoles, roleAllows } from '#shared/domain/dashboard-roles.ts';
import type { Language } from '#shared/domain/languages.ts';
import type { UemoaCountry } from '#shared/domain/uemoa-countries.ts';
import type { ActingMember } from '#shared/operations/dashboard-access.ts';
import type { InvitationField, InvitationForm } from '#shared/operations/team.ts';
import { errorSummary, field } from '#shared/pages/components.ts';
import { csrfField, readableTime } from '#shared/pages/dashboard-chrome.ts';
import { confirmationPage, doneNotice } from '#shared/pages/dashboard-confirmation.ts';
import { dashboardTemplate } from '#shared/pages/dashboard-template.ts';
import { dashboardHeader, postForm, roleNames } from '#shared/pages/dashboard-text.ts';
import { type DashboardPageContext, dashboardUrl } from '#shared/pages/dashboard-url.ts';
import { deBefore, maskPhone } from '#shared/pages/format.ts';
import { html } from '#shared/pages/html.ts';
import { phoneCountryOf, phoneExamples, phoneField } from '#shared/pages/phone-country.ts';

const text = {
  fr: {
    title: 'Équipe',
    members: 'Membres',
    you: '(vous)',
    role: 'Rôle',
    roleOf: (name: string) => `Rôle ${deBefore(name)}`,
    changeRole: 'Changer le rôle',
    remove: 'Retirer',
    removeOf: (name: string) => `Retirer ${name}`,
    invitations: 'Invitations en attente',
    until: (date: string) => `valable jusqu’au ${date}`,
    invite: 'Inviter un membre',
    inviteIntro:
      'La personne reçoit un SMS avec un lien ; elle se connecte avec ce numéro et rejoint l’entreprise.',
    firstName: 'Prénom',
    lastName: 'Nom',
    phone: 'Numéro de téléphone',
    send: 'Envoyer l’invitation',
    errorSummary: 'Il y a un problème',
    required: (label: string) => `Renseignez : ${label.toLowerCase()}.`,
    roleInvalid: 'Choisissez un rôle dans la liste.',
    alreadyMember: 'Cette personne est déjà membre de l’entreprise.',
    tooMany: 'Trop d’invitations en attente. Attendez qu’elles soient acceptées ou expirées.',
    lastOwner: 'Le dernier propriétaire ne peut être ni retiré ni changé de rôle.',
    readOnly: 'Votre rôle permet de consulter l’équipe, pas de la modifier.',
    cancelInvitation: 'Annuler l’invitation',
    cancelInvitationOf: (name: string) => `Annuler l’invitation ${deBefore(name)}`,
    invited: (name: string, phone: string, date: string) =>
      `Invitation envoyée à ${name} (${phone}) par SMS. Elle est valable jusqu’au ${date}.`,
    removed: 'Le membre a été retiré de l’entreprise : il n’y a plus accès.',
    cancelled: 'L’invitation a été annulée : son lien ne permet plus de rejoindre l’entreprise.',
    roleChanged: 'Le rôle a été changé.',
    stale: 'Cette invitation vient d’être acceptée ou remplacée : rien n’a été annulé.',
    confirmRemoveTitle: (name: string) => `Retirer ${name} de l’équipe ?`,
    confirmRemove: (name: string, business: string) => [
      `${name} n’aura plus accès au tableau de bord ${deBefore(business)}, dès maintenant : ses sessions en cours pour cette entreprise s’arrêtent.`,
      'Ce qu’il a fait reste dans le journal d’activité. Pour qu’il revienne, il faudra l’inviter à nouveau.',
    ],
    confirmRemoveButton: 'Oui, retirer ce membre',
    confirmCancelTitle: 'Annuler cette invitation ?',
    confirmCancel: (name: string) => [
      `Le lien reçu par SMS ne permettra plus à ${name} de rejoindre l’entreprise.`,
      'Pour l’inviter plus tard, il faudra envoyer une nouvelle invitation.',
    ],
    confirmCancelButton: 'Oui, annuler l’invitation',
    name: 'Nom',
    until2: 'Valable jusqu’au',
  },
  en: {
    title: 'Team',
    members: 'Members',
    you: '(you)',
    role: 'Role',
    roleOf: (name: string) => `Role of ${name}`,
    changeRole: 'Change role',
    remove: 'Remove',
    removeOf: (name: string) => `Remove ${name}`,
    invitations: 'Pending invitations',
    until: (date: string) => `valid until ${date}`,
    invite: 'Invite a member',
    inviteIntro: 'They get a text with a link; they sign in with that number and join the business.',
    firstName: 'First name',
    lastName: 'Last name',
    phone: 'Phone number',
    send: 'Send the invitation',
    errorSummary: 'There is a problem',
    required: (label: string) => `Enter the ${label.toLowerCase()}.`,
    roleInvalid: 'Choose a role from the list.',
    alreadyMember: 'This person is already a member of the business.',
    tooMany: 'Too many pending invitations. Wait until they are accepted or expire.',
    lastOwner: 'The last owner can be neither removed nor given another role.',
    readOnly: 'Your role lets you see the team, not change it.',
    cancelInvitation: 'Cancel the invitation',
    cancelInvitationOf: (name: string) => `Cancel the invitation of ${name}`,
    invited: (name: string, phone: string, date: string) =>
      `Invitation sent to ${name} (${phone}) by text. It is valid until ${date}.`,
    removed: 'The member was removed from the business: they no longer have access.',
    cancelled: 'The invitation was cancelled: its link no longer lets anyone join the business.',
    roleChanged: 'The role was changed.',
    stale: 'This invitation was just accepted or replaced: nothing was cancelled.',
    confirmRemoveTitle: (name: string) => `Remove ${name} from the team?`,
    confirmRemove: (name: string, business: string) => [
      `${name} will no longer have access to ${business}’s dashboard, from now on: their current sessions for this business stop.`,
      'What they did stays in the activity log. For them to come back, you will have to invite them again.',
    ],
    confirmRemoveButton: 'Yes, remove this member',
    confirmCancelTitle: 'Cancel this invitation?',
    confirmCancel: (name: string) => [
      `The link in the text will no longer let ${name} join the business.`,
      'To invite them later, you will have to send a new invitation.',
    ],
    confirmCancelButton: 'Yes, cancel the invitation',
    name: 'Name',
    until2: 'Valid until',
  },
} satisfies Record<Language, unknown>;

export type TeamNotice = 'already_member' | 'too_many' | 'last_owner' | 'stale';

/** What was just done, said at the top (post, redirect, then this). */
export type TeamDone =
  | { kind: 'invited'; invitationId: string }
  | { kind: 'removed' | 'cancelled' | 'roleChanged' };

function doneMessage(
  context: Pick<DashboardPageContext, 'language' | 'timeZone'>,
  done: TeamDone | undefined,
  invitations: readonly Invitation[],
): string | undefined {
  if (!done) return undefined;
  const t = text[context.language];
  if (done.kind !== 'invited') return t[done.kind];
  // The invitation named in the address, among those shown: a made-up id says nothing.
  const invitation = invitations.find((candidate) => invitationIdOf(candidate) === done.invitationId);
  return (
    invitation &&
    t.invited(
      `${invitation.firstName} ${invitation.lastName}`,
      maskPhone(invitation.phone),
      readableTime(invitation.expiresAt, context),
    )
  );
}

/** The roles the acting member may give: owners only by an owner. */
const grantable = (acting: ActingMember): readonly MemberRole[] =>
  memberRoles.filter((role) => role !== 'owner' || roleAllows(acting.role, 'manageOwners'));

function roleSelect(
  id: string,
  label: string,
  roles: readonly MemberRole[],
  selected: string | undefined,
  language: Language,
  error?: string,
) {
  return html`<label class="field" for="${id}">${label}</label>
${error && html`<p class="field-error" id="${id}-error">${error}</p>`}
<select class="input" id="${id}" name="role" required${error && html` aria-invalid="true" aria-describedby="${id}-error"`}>
${roles.map((role) => html`<option value="${role}"${role === selected ? html` selected` : ''}>${roleNames[language][role]}</option>`)}
</select>`;
}

/**
 * `/dashboard/team`: the members with their masked phones and roles; for a member whose role may
 * manage the team, a role form and a remove button on each member it may change, and the
 * invitation form. What is shown only spares a refusal: the server asks the role on every post.
 */
export function teamPage(
  context: DashboardPageContext & {
    csrfToken: string;
    member: ActingMember;
    members: readonly Member[];
    invitations: readonly Invitation[];
    /** The business's country: an invitee's national number is read there unless another is chosen. */
    phoneCountry: UemoaCountry;
  },
  options: {
    form?: Partial<InvitationForm>;
    invalid?: readonly InvitationField[];
    notice?: TeamNotice;
    done?: TeamDone | undefined;
  } = {},
): string {
  const t = text[context.language];
  const acting = context.member;
  const country = phoneCountryOf(options.form?.phoneCountry, { businessCountry: context.phoneCountry });
  const examples = phoneExamples(country, context.language);
  const manages = roleAllows(acting.role, 'manageTeam');
  const mayChange = (member: Member) =>
    manages && (member.role !== 'owner' || roleAllows(acting.role, 'manageOwners'));
  const messageOf = (name: InvitationField) => {
    if (!options.invalid?.includes(name)) return undefined;
    if (name === 'phone') return examples.invalid;
    if (name === 'role') return t.roleInvalid;
    return t.required(t[name]);
  };
  const errors = [
    ...(options.invalid ?? []).map((name) => ({
      field: name === 'role' ? 'invite-role' : name,
      message: messageOf(name) ?? '',
    })),
    ...(options.notice === 'already_member' ? [{ field: 'phone', message: t.alreadyMember }] : []),
    ...(options.notice === 'too_many' ? [{ field: 'phone', message: t.tooMany }] : []),
  ];
  const nameField = (name: 'firstName' | 'lastName', autocomplete: string) =>
    field({
      name,
      label: t[name],
      value: options.form?.[name],
      error: messageOf(name),
      attributes: html` maxlength="64" autocomplete="${autocomplete}" required`,
    });
  const memberRow = (member: Member) => {
    const self = member.id === acting.memberId;
    return html`<li class="member" data-member-id="${member.id}">
<p><strong data-testid="member-name">${member.name}</strong>${self ? html` ${t.you}` : ''}<br>
<span class="muted">${member.phone ? maskPhone(member.phone) : ''}</span> · <span data-testid="member-role">${roleNames[context.language][member.role]}</span></p>
${
  mayChange(member) &&
  html`${postForm(
    dashboardUrl(context, `/team/members/${member.id}/role`),
    context.csrfToken,
    html`${roleSelect(`role-${member.id}`, t.roleOf(member.name), grantable(acting), member.role, context.language)}
<button class="button button-secondary" type="submit">${t.changeRole}</button>`,
  )}
<p><a class="button button-secondary" href="${dashboardUrl(context, `/team/members/${member.id}/remove`)}" aria-label="${t.removeOf(member.name)}">${t.remove}</a></p>`
}
</li>`;
  };
  return dashboardTemplate(
    { ...context, role: context.role ?? acting.role },
    {
      section: 'team',
      title: `${t.title} · ${acting.businessName}`,
      pageUrl: `${context.baseUrl}/dashboard/team`,
      content: html`<div class="content">
${dashboardHeader(context.language, { businessName: acting.businessName, homeUrl: dashboardUrl(context) })}
${errorSummary(t.errorSummary, errors)}
${options.notice === 'last_owner' && html`<div class="alert" role="alert"><p>${t.lastOwner}</p></div>`}
${options.notice === 'stale' && html`<div class="alert" role="alert"><p>${t.stale}</p></div>`}
${doneNotice(doneMessage(context, options.done, context.invitations))}
<h1>${t.title}</h1>
<h2>${t.members}</h2>
<ul class="members" data-testid="members">${context.members.map(memberRow)}</ul>
${
  context.invitations.length > 0 &&
  html`<h2>${t.invitations}</h2>
<ul data-testid="invitations">${context.invitations.map(
    (invitation) =>
      html`<li data-invitation-id="${invitationIdOf(invitation)}">${invitation.firstName} ${invitation.lastName} · ${maskPhone(invitation.phone)} · ${roleNames[context.language][invitation.role]} <span class="muted">(${t.until(readableTime(invitation.expiresAt, context))})</span>${
        manages &&
        (invitation.role !== 'owner' || roleAllows(acting.role, 'manageOwners')) &&
        html`<br><a href="${dashboardUrl(context, `/team/invitations/${invitationIdOf(invitation)}/cancel`)}" aria-label="${t.cancelInvitationOf(`${invitation.firstName} ${invitation.lastName}`)}">${t.cancelInvitation}</a>`
      }</li>`,
  )}</ul>`
}
${
  manages
    ? html`<h2>${t.invite}</h2>
<p>${t.inviteIntro}</p>
<form method="post" action="${dashboardUrl(context, '/team/invitations')}" novalidate>
${csrfField(context.csrfToken)}
${nameField('firstName', 'off')}
${nameField('lastName', 'off')}
${phoneField({
  name: 'phone',
  label: t.phone,
  country,
  language: context.language,
  hint: examples.hint,
  value: options.form?.phone,
  error: messageOf('phone'),
  attributes: html` type="tel" inputmode="tel" autocomplete="off" maxlength="32" required`,
})}
${roleSelect('invite-role', t.role, grantable(acting), options.form?.role ?? 'viewer', context.language, messageOf('role'))}
<button class="button" type="submit">${t.send}</button>
</form>`
    : html`<p class="muted">${t.readOnly}</p>`
}
</div>`,
    },
  );
}

type ConfirmContext = DashboardPageContext & { pageUrl: string; csrfToken: string };

/** The step before a member is removed: who, and what they lose. */
export function confirmRemoveMemberPage(
  context: ConfirmContext,
  acting: ActingMember,
  member: Member,
): string {
  const t = text[context.language];
  return confirmationPage(context, {
    section: 'team',
    title: t.confirmRemoveTitle(member.name),
    facts: [
      [t.name, member.name],
      [t.role, roleNames[context.language][member.role]],
      ...(member.phone ? [[t.phone, maskPhone(member.phone)] as const] : []),
    ],
    consequences: t.confirmRemove(member.name, acting.businessName),
    action: dashboardUrl(context, `/team/members/${member.id}/remove`),
    confirm: t.confirmRemoveButton,
    backUrl: dashboardUrl(context, '/team'),
  });
}

/** The step before a pending invitation is cancelled: whom, and that its link stops working. */
export function confirmCancelInvitationPage(context: ConfirmContext, invitation: Invitation): string {
  const t = text[context.language];
  const name = `${invitation.firstName} ${invitation.lastName}`;
  return confirmationPage(context, {
    section: 'team',
    title: t.confirmCancelTitle,
    facts: [
      [t.name, name],
      [t.phone, maskPhone(invitation.phone)],
      [t.role, roleNames[context.language][invitation.role]],
      [t.until2, readableTime(invitation.expiresAt, context)],
    ],
    consequences: t.confirmCancel(name),
    action: dashboardUrl(context, `/team/invitations/${invitationIdOf(invitation)}/cancel`),
    confirm: t.confirmCancelButton,
    backUrl: dashboardUrl(context, '/team'),
  });
}
