/**
 * Member: a person acting for a business (its owner, or staff). API keys record the member who
 * created them.
 *
 * Key: pk = BIZ#<businessId>, sk = MEMBER#<memberId>.
 *
 * Access patterns and cost:
 * - written with its business (see business.ts); read with the business partition when needed.
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
