import type { DashboardSession } from '#shared/data/dashboard-session.ts';
import { listMembers } from '#shared/data/member.ts';
import { listOwnedBusinesses } from '#shared/data/user.ts';
import {
  type DashboardAction,
  isMemberRole,
  type MemberRole,
  requireRoleAllows,
} from '#shared/domain/dashboard-roles.ts';
import { ForbiddenAction } from '#shared/errors/auth.ts';

/**
 * Who is acting on the dashboard, and for which business: every page that reads or changes a
 * business asks here first. Interim rule until memberships and business switching exist: the first
 * business the signed-in person owns, with the role written on their member record of it (onboarding
 * writes `owner`). The names and shapes here are the lasting interface; only how
 * the member is found will change.
 */
export interface ActingMember {
  businessId: string;
  businessName: string;
  memberId: string;
  userId: string;
  role: MemberRole;
}

export async function actingMember(session: DashboardSession): Promise<ActingMember> {
  const [business] = await listOwnedBusinesses(session.userId);
  if (!business) throw new ForbiddenAction('The signed-in person acts for no business');
  const member = (await listMembers(business.businessId)).find(
    (candidate) => candidate.userId === session.userId,
  );
  if (!member) throw new ForbiddenAction('The signed-in person is not a member of this business');
  return {
    businessId: business.businessId,
    businessName: business.businessName,
    memberId: member.id,
    userId: session.userId,
    // A role this table does not know reads as the least one: nothing is granted by mistake.
    role: isMemberRole(member.role) ? member.role : 'viewer',
  };
}

/** The acting member, once their role is known to allow `action` (403 `forbidden_action` otherwise). */
export async function requireAction(
  session: DashboardSession,
  action: DashboardAction,
): Promise<ActingMember> {
  const member = await actingMember(session);
  requireRoleAllows(member.role, action);
  return member;
}
