import { randomUUID } from 'node:crypto';
import {
  acceptInvitationWrites,
  cancelInvitationWrites,
  type Invitation,
  invitationIdOf,
  invitationLifetimeMs,
  invitationsOfBusiness,
  invitationsOfPhone,
  invitationWrites,
  maxPendingInvitations,
} from '#shared/data/invitation.ts';
import { getMember, listMembers, type Member } from '#shared/data/member.ts';
import {
  listMemberships,
  type Membership,
  memberRemovalWrites,
  newMemberWrites,
  roleChangeWrites,
  stillOwnerCheck,
} from '#shared/data/membership.ts';
import { listStores } from '#shared/data/store.ts';
import { transactWrite } from '#shared/data/transact.ts';
import { findUserByPhone, newUser, type User, userWrites } from '#shared/data/user.ts';
import { isMemberRole, requireRoleAllows } from '#shared/domain/dashboard-roles.ts';
import { uuidPattern } from '#shared/domain/ids.ts';
import type { Language } from '#shared/domain/languages.ts';
import { maskPhone, normalisePhoneNumber } from '#shared/domain/phone-numbers.ts';
import { defaultCountry, isUemoaCountry, type UemoaCountry } from '#shared/domain/uemoa-countries.ts';
import { InvitationNotFound, LastOwner, MemberNotFound } from '#shared/errors/dashboard.ts';
import { Conflict } from '#shared/errors/request.ts';
import { count } from '#shared/metrics.ts';
import { auditWriteFor } from '#shared/operations/audit-log.ts';
import type { ActingMember } from '#shared/operations/dashboard-access.ts';
import { sendPlatformSms } from '#shared/operations/messages.ts';

/**
 * The team of a business: its members and their roles, invitations by phone, role changes and
 * removals. Every change asks the acting member's role first (`manageTeam`; `manageOwners` when an
 * owner is made, unmade or removed), reads only under the acting business (another business's
 * member is not found), and keeps at least one owner, guarded in the very transaction.
 */

export interface Team {
  member: ActingMember;
  members: Member[];
  invitations: Invitation[];
  /** The country an invitee's national number is read in by default: the first store's. */
  phoneCountry: UemoaCountry;
}

/** The business's country, its first store's (Côte d'Ivoire for a business without one). */
async function businessCountryOf(businessId: string): Promise<UemoaCountry> {
  const [store] = await listStores(businessId);
  return store?.country ?? defaultCountry;
}

/** The team as a member of the business sees it (its page declares `read`). */
export async function teamOf(member: ActingMember): Promise<Team> {
  const [members, invitations, phoneCountry] = await Promise.all([
    listMembers(member.businessId),
    invitationsOfBusiness(member.businessId),
    businessCountryOf(member.businessId),
  ]);
  return { member, members, invitations, phoneCountry };
}

export interface InvitationForm {
  firstName: string;
  lastName: string;
  phone: string;
  role: string;
  /** The country chosen beside the number for its national form (`SN`); else the business's. */
  phoneCountry?: string | undefined;
}

export type InvitationField = Exclude<keyof InvitationForm, 'phoneCountry'>;

export type InvitationOutcome =
  | { outcome: 'invited'; invitation: Invitation }
  | { outcome: 'invalid'; fields: InvitationField[] }
  | { outcome: 'already_member' }
  | { outcome: 'too_many' };

/** The SMS carries the way in, not a code: the invitee proves the phone by signing in with it. */
const invitationText: Record<Language, (business: string, signInUrl: string) => string> = {
  fr: (business, url) =>
    `Partner Payments : vous êtes invité à rejoindre ${business}. Connectez-vous avec ce numéro : ${url}`,
  en: (business, url) =>
    `Partner Payments: you are invited to join ${business}. Sign in with this number: ${url}`,
};

/**
 * Invites a phone with a role, for a member whose role manages the team (the page's declared
 * permission, asked before it runs): an owner's invitation needs `manageOwners` (403) before the
 * form is even read, then the form, then whether the phone's user is already a member. The SMS goes through the service's own
 * path (charged to no business), in the inviter's language.
 */
export async function inviteMember(
  acting: ActingMember,
  form: InvitationForm,
  context: { signInUrl: string; language: Language; sourceIp?: string | undefined },
  now = new Date(),
): Promise<InvitationOutcome> {
  if (form.role === 'owner') requireRoleAllows(acting.role, 'manageOwners');
  const country = isUemoaCountry(form.phoneCountry)
    ? form.phoneCountry
    : await businessCountryOf(acting.businessId);
  const phone = normalisePhoneNumber(form.phone, country);
  const fields: InvitationField[] = [];
  if (!form.firstName.trim()) fields.push('firstName');
  if (!form.lastName.trim()) fields.push('lastName');
  if (!phone) fields.push('phone');
  if (!isMemberRole(form.role)) fields.push('role');
  if (fields.length > 0 || !phone || !isMemberRole(form.role)) return { outcome: 'invalid', fields };
  const user = await findUserByPhone(phone);
  if (user && (await listMemberships(user.id)).some((m) => m.businessId === acting.businessId)) {
    return { outcome: 'already_member' };
  }
  const pending = await invitationsOfBusiness(acting.businessId, now);
  if (pending.length >= maxPendingInvitations && !pending.some((invitation) => invitation.phone === phone)) {
    return { outcome: 'too_many' };
  }
  const invitation: Invitation = {
    businessId: acting.businessId,
    businessName: acting.businessName,
    phone,
    role: form.role,
    firstName: form.firstName.trim(),
    lastName: form.lastName.trim(),
    invitedByMemberId: acting.memberId,
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + invitationLifetimeMs).toISOString(),
  };
  const audit = auditWriteFor(
    acting,
    {
      action: 'member_invited',
      detail: `${maskPhone(phone)} (${form.role})`,
      sourceIp: context.sourceIp ?? '',
    },
    now,
  );
  await transactWrite([...invitationWrites(invitation), audit]);
  count('DashboardInvitationsSent');
  await sendPlatformSms({
    to: phone,
    reference: `invitation:${acting.businessId}:${phone}:${invitation.createdAt}`,
    body: invitationText[context.language](acting.businessName, context.signInUrl),
  });
  return { outcome: 'invited', invitation };
}

/**
 * A pending invitation of the acting business by its id, for a member who may cancel it
 * (`manageTeam`; `manageOwners` for an owner's). Another business's, or one no longer pending, is
 * not found.
 */
export async function pendingInvitationOf(
  acting: ActingMember,
  invitationId: string,
  now = new Date(),
): Promise<{ acting: ActingMember; invitation: Invitation }> {
  const invitation = (await invitationsOfBusiness(acting.businessId, now)).find(
    (candidate) => invitationIdOf(candidate) === invitationId,
  );
  if (!invitation) throw new InvitationNotFound();
  if (invitation.role === 'owner') requireRoleAllows(acting.role, 'manageOwners');
  return { acting, invitation };
}

/**
 * Cancels a pending invitation: its link no longer lets the phone in (the next sign-in with it
 * finds no invitation). One accepted or replaced meanwhile is left as it is (409).
 */
export async function cancelInvitation(
  acting: ActingMember,
  invitationId: string,
  sourceIp = '',
  now = new Date(),
): Promise<Invitation> {
  const { invitation } = await pendingInvitationOf(acting, invitationId, now);
  const audit = auditWriteFor(
    acting,
    {
      action: 'invitation_cancelled',
      detail: `${maskPhone(invitation.phone)} (${invitation.role})`,
      sourceIp,
    },
    now,
  );
  await transactWrite([...cancelInvitationWrites(invitation), audit]);
  count('DashboardInvitationsCancelled');
  return invitation;
}

/** A member of the acting business by id; any other id (another business's, junk) is not found. */
async function memberOfActingBusiness(acting: ActingMember, memberId: string): Promise<Member> {
  const member = uuidPattern.test(memberId) ? await getMember(acting.businessId, memberId) : undefined;
  if (!member) throw new MemberNotFound();
  return member;
}

/** Another owner than `member`, whose staying an owner the transaction holds; none: it is the last. */
async function anotherOwner(member: Member): Promise<Member> {
  const other = (await listMembers(member.businessId)).find(
    (candidate) => candidate.role === 'owner' && candidate.id !== member.id,
  );
  if (!other) throw new LastOwner();
  return other;
}

export async function changeMemberRole(acting: ActingMember, memberId: string, role: string, sourceIp = '') {
  if (!isMemberRole(role)) throw new MemberNotFound();
  const member = await memberOfActingBusiness(acting, memberId);
  if (member.role === role) return member;
  if (member.role === 'owner' || role === 'owner') requireRoleAllows(acting.role, 'manageOwners');
  const guard = member.role === 'owner' ? [stillOwnerCheck(await anotherOwner(member))] : [];
  const audit = auditWriteFor(acting, {
    action: 'member_role_changed',
    subjectId: member.id,
    detail: `${member.name}: ${member.role} → ${role}`,
    sourceIp,
  });
  await transactWrite([...roleChangeWrites(member, member.role, role, acting.businessName), ...guard, audit]);
  count('DashboardRoleChanges');
  return { ...member, role };
}

/** The member the acting member asks to remove, for the confirmation: refused as the removal would be. */
export async function memberToRemove(acting: ActingMember, memberId: string) {
  const member = await memberOfActingBusiness(acting, memberId);
  if (member.role === 'owner') requireRoleAllows(acting.role, 'manageOwners');
  return { acting, member };
}

export async function removeMember(acting: ActingMember, memberId: string, sourceIp = ''): Promise<void> {
  const member = await memberOfActingBusiness(acting, memberId);
  if (member.role === 'owner') requireRoleAllows(acting.role, 'manageOwners');
  const guard = member.role === 'owner' ? [stillOwnerCheck(await anotherOwner(member))] : [];
  const audit = auditWriteFor(acting, {
    action: 'member_removed',
    subjectId: member.id,
    detail: `${member.name} (${member.role})`,
    sourceIp,
  });
  await transactWrite([...memberRemovalWrites(member, member.role), ...guard, audit]);
  count('DashboardMembersRemoved');
}

/**
 * The phone's invitations, accepted by whoever just proved the phone: each one makes a member with
 * its role. Without a `user` (a phone with no account yet), the first invitation's names make
 * one. Returns the user and the businesses joined (empty when there was nothing to accept).
 */
export async function acceptInvitations(
  phone: string,
  user: User | undefined,
  now = new Date(),
): Promise<{ user: User | undefined; joined: Membership[] }> {
  const invitations = await invitationsOfPhone(phone, now);
  const joined: Membership[] = [];
  let account = user;
  const memberOf = new Set(account ? (await listMemberships(account.id)).map((m) => m.businessId) : []);
  for (const invitation of invitations) {
    const newAccount = account
      ? undefined
      : newUser({ phone, firstName: invitation.firstName, lastName: invitation.lastName });
    const person = account ?? (newAccount as User);
    const member: Member = {
      id: randomUUID(),
      businessId: invitation.businessId,
      role: invitation.role,
      name: `${person.firstName} ${person.lastName}`.trim(),
      phone,
      userId: person.id,
      createdAt: now.toISOString(),
    };
    const alreadyIn = memberOf.has(invitation.businessId);
    try {
      await transactWrite([
        ...(newAccount ? userWrites(newAccount) : []),
        ...acceptInvitationWrites(invitation),
        ...(alreadyIn ? [] : newMemberWrites(member, invitation.businessName)),
      ]);
    } catch (error) {
      // Accepted by a concurrent sign-in, or replaced meanwhile: the next sign-in takes the new one.
      if (error instanceof Conflict) continue;
      throw error;
    }
    account = person;
    if (!alreadyIn) {
      memberOf.add(invitation.businessId);
      count('DashboardInvitationsAccepted');
      joined.push({
        businessId: invitation.businessId,
        businessName: invitation.businessName,
        memberId: member.id,
        role: member.role,
      });
    }
  }
  return { user: account, joined };
}
