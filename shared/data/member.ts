import { queryPrefix } from '#shared/data/query.ts';

/**
 * Member: a person acting for a business (its owner, or staff). API keys record the member who
 * created them.
 *
 * Key: pk = BIZ#<businessId>, sk = MEMBER#<memberId>.
 *
 * Access patterns and cost:
 * - written with its business (see business.ts).
 * - list (the dashboard: who made a key, the audit log's filter): Query pk, begins_with(sk, "MEMBER#"),
 *   0.5 RCU per 4 KB.
 */
export interface Member {
  id: string;
  businessId: string;
  role: 'owner' | 'member';
  name: string;
  phone?: string | undefined;
  /** The user (person) this member is, when known. */
  userId?: string | undefined;
  createdAt: string;
}

export const memberKey = (businessId: string, memberId: string) => ({
  pk: `BIZ#${businessId}`,
  sk: `MEMBER#${memberId}`,
});

export function memberItem(member: Member) {
  return { ...memberKey(member.businessId, member.id), entity: 'member', ...member };
}

/** The business's members: Query pk, begins_with(sk, "MEMBER#"), 0.5 RCU per 4 KB (a few members). */
export async function listMembers(businessId: string): Promise<Member[]> {
  return (await queryPrefix(`BIZ#${businessId}`, 'MEMBER#')).map((item) => ({
    id: item.id as string,
    businessId: item.businessId as string,
    role: item.role as Member['role'],
    name: item.name as string,
    phone: item.phone as string | undefined,
    userId: item.userId as string | undefined,
    createdAt: item.createdAt as string,
  }));
}
