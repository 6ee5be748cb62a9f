import { getBusiness } from '#shared/data/business.ts';
import { type DashboardSession, setSessionBusiness } from '#shared/data/dashboard-session.ts';
import { getMember } from '#shared/data/member.ts';
import { listMemberships, type Membership } from '#shared/data/membership.ts';
import { listStores } from '#shared/data/store.ts';
import type { Caller } from '#shared/domain/caller.ts';
import { storeTimeZone } from '#shared/domain/country-time-zones.ts';
import type { MemberRole } from '#shared/domain/dashboard-roles.ts';
import { BusinessNotFound } from '#shared/errors/businesses.ts';
import { BusinessNotChosen } from '#shared/errors/dashboard.ts';

/**
 * Who a dashboard request acts as: the member the signed-in person is in the business the session
 * chose. Every dashboard operation starts here and reads only under `businessId`, so a session of
 * business A asking for B's objects finds nothing (404), as an API key of A would.
 */
export interface ActingMember {
  businessId: string;
  businessName: string;
  memberId: string;
  userId: string;
  role: MemberRole;
  isServiceProvider: boolean;
  verificationLevel: number;
  /**
   * Where the business is: its first store's country's zone, in which the dashboard writes times
   * that belong to no store (a key's use, the audit log). Côte d'Ivoire's when unknown.
   */
  timeZone?: string | undefined;
}

/** Each business's zone once read: a store keeps its country, so a warm function reads it once. */
const businessZones = new Map<string, string>();

/** The zone of the business's first store: one Query of its stores, then none while warm. */
async function businessTimeZone(businessId: string): Promise<string | undefined> {
  const known = businessZones.get(businessId);
  if (known) return known;
  const [first] = (await listStores(businessId)).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  if (!first) return undefined;
  if (businessZones.size >= 10_000) businessZones.clear();
  const zone = storeTimeZone(first);
  businessZones.set(businessId, zone);
  return zone;
}

/**
 * The acting member, read afresh on every request (a role change or a removal applies at once).
 * Refused with `BusinessNotChosen` when the session has no business or its member is gone or is
 * another person: dashboard pages then send the person to choose again.
 */
export async function actingMember(session: DashboardSession): Promise<ActingMember> {
  const { businessId, memberId } = session;
  if (!businessId || !memberId) throw new BusinessNotChosen();
  const [member, business, timeZone] = await Promise.all([
    getMember(businessId, memberId),
    getBusiness(businessId),
    businessTimeZone(businessId),
  ]);
  // A member without a user is an owner the operator made; only a session chosen from the
  // user's own memberships can point at it (the local demo's owner before its user was named).
  if (!member || !business || (member.userId !== undefined && member.userId !== session.userId)) {
    throw new BusinessNotChosen();
  }
  return {
    businessId,
    businessName: business.name,
    memberId,
    userId: session.userId,
    role: member.role,
    isServiceProvider: business.isServiceProvider,
    verificationLevel: business.verificationLevel,
    timeZone,
  };
}

/**
 * The acting member as the API's operations know a caller: a platform key of the whole business
 * (every store, escrows included), so a page and an API call go through one operation and one
 * set of rules. Its `keyId` names the member, where an API key's names the key: what an operation
 * keeps per key (a listing's snapshot) is then kept per member.
 */
export const callerForMember = (member: ActingMember): Caller => ({
  businessId: member.businessId,
  keyId: `member:${member.memberId}`,
  keyKind: 'platform',
  memberId: member.memberId,
  isServiceProvider: member.isServiceProvider,
  verificationLevel: member.verificationLevel,
});

/** The businesses the signed-in person belongs to, with their role in each. */
export const businessesOf = (session: DashboardSession): Promise<Membership[]> =>
  listMemberships(session.userId);

/**
 * The session acts for `businessId` from now on, if the person is one of its members; any other
 * id (another's business, junk) is refused as not found, and the session keeps its choice.
 */
export async function chooseBusiness(session: DashboardSession, businessId: string): Promise<Membership> {
  const membership = (await businessesOf(session)).find((candidate) => candidate.businessId === businessId);
  if (!membership) throw new BusinessNotFound();
  await setSessionBusiness(session.idHash, membership.businessId, membership.memberId);
  return membership;
}
