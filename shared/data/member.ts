import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '#shared/aws/dynamodb.ts';
import { queryPrefix } from '#shared/data/query.ts';
import { isMemberRole, type MemberRole } from '#shared/domain/dashboard-roles.ts';

/**
 * Member: a person acting for a business with a role (see shared/domain/dashboard-roles.ts). API
 * keys record the member who created them. The member item is the one word on a person's role: the
 * user's side (membership.ts) only finds the businesses, and every dashboard request reads this.
 *
 * Key: pk = BIZ#<businessId>, sk = MEMBER#<memberId>.
 *
 * Before roles, a member was 'owner' or 'member'. Owners are still 'owner'; a 'member' (never
 * written by the service, possible only by hand) reads as 'viewer', the least it could mean.
 *
 * Access patterns and cost (items ~300 bytes):
 * - the acting member, on every dashboard request: GetItem, strongly consistent (a removed member
 *   loses access at once), 1 RCU.
 * - a business's team: Query pk, begins_with(sk, "MEMBER#"), 0.5 RCU per 4 KB (~13 members).
 * - created with its business (business.ts) or when an invitation is accepted (invitation.ts);
 *   role change and removal: part of a TransactWriteItems with the user's side (membership.ts),
 *   2 WCU per item written.
 */
export interface Member {
  id: string;
  businessId: string;
  role: MemberRole;
  name: string;
  phone?: string | undefined;
  /** The user (person) this member is; absent for an owner the operator made without a user. */
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

export function toMember(item: Record<string, unknown>): Member {
  const role = String(item.role);
  return {
    id: item.id as string,
    businessId: item.businessId as string,
    role: isMemberRole(role) ? role : 'viewer',
    name: item.name as string,
    phone: item.phone as string | undefined,
    userId: item.userId as string | undefined,
    createdAt: item.createdAt as string,
  };
}

export async function getMember(businessId: string, memberId: string): Promise<Member | undefined> {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: tableName(), Key: memberKey(businessId, memberId), ConsistentRead: true }),
  );
  return Item ? toMember(Item) : undefined;
}

/** The business's members, oldest first. */
export async function listMembers(businessId: string): Promise<Member[]> {
  const members = (await queryPrefix(`BIZ#${businessId}`, 'MEMBER#')).map(toMember);
  return members.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

/** Names the user a member is, when the operator made the member without one (the local demo's owner). */
export async function attachUser(businessId: string, memberId: string, userId: string): Promise<void> {
  await documentClient
    .send(
      new UpdateCommand({
        TableName: tableName(),
        Key: memberKey(businessId, memberId),
        UpdateExpression: 'SET userId = :user',
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(userId)',
        ExpressionAttributeValues: { ':user': userId },
      }),
    )
    .catch((error: unknown) => {
      if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
    });
}
