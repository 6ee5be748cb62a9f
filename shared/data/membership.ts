import { tableName } from '#shared/aws/dynamodb.ts';
import { getBusiness } from '#shared/data/business.ts';
import { type Member, memberItem, memberKey } from '#shared/data/member.ts';
import { queryAll } from '#shared/data/query.ts';
import type { GuardedWrite } from '#shared/data/transact.ts';
import { isMemberRole, type MemberRole } from '#shared/domain/dashboard-roles.ts';
import { Conflict } from '#shared/errors/request.ts';

/**
 * Membership: the user's side of a member, so a person finds the businesses they belong to. The
 * role here is a copy for the list of businesses; the member item (member.ts) decides.
 *
 * Keys:
 * - pk = USER#<userId>, sk = MEMBER_OF#<businessId>: the business, its name, the member id, role.
 * - pk = USER#<userId>, sk = OWNS#<businessId>: what sign-up, the admin command and onboarding
 *   wrote before roles (business id and name only). Still read as an owner's membership, whose
 *   member id is the business's `ownerMemberId`; replaced by a MEMBER_OF# item the first time
 *   the member's role changes, and deleted with the member. No bulk migration is needed.
 *
 * Access patterns and cost (items ~200 bytes):
 * - a user's businesses (sign-in, the switch page): Query pk, sk between "MEMBER_OF#" and "OWNS$"
 *   (both prefixes, nothing else of the user's partition), strongly consistent, 0.5 RCU per 4 KB;
 *   plus a GetItem of the business (0.5 RCU) per legacy OWNS# item.
 * - written with its member: a put, 2 WCU in a TransactWriteItems.
 */
export interface Membership {
  businessId: string;
  businessName: string;
  memberId: string;
  role: MemberRole;
}

const membershipKey = (userId: string, businessId: string) => ({
  pk: `USER#${userId}`,
  sk: `MEMBER_OF#${businessId}`,
});
const legacyOwnershipKey = (userId: string, businessId: string) => ({
  pk: `USER#${userId}`,
  sk: `OWNS#${businessId}`,
});

/** The user's side of a new member (the member's `userId` must be set). */
export function membershipWrite(member: Member, businessName: string): GuardedWrite {
  return {
    write: {
      Put: {
        TableName: tableName(),
        Item: {
          ...membershipKey(member.userId as string, member.businessId),
          entity: 'membership',
          businessId: member.businessId,
          businessName,
          memberId: member.id,
          role: member.role,
        },
      },
    },
  };
}

/** A new member and its user's side; fails (409) if the member id is taken. */
export function newMemberWrites(member: Member, businessName: string): GuardedWrite[] {
  return [
    {
      write: {
        Put: {
          TableName: tableName(),
          Item: memberItem(member),
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      onConditionFailed: () => new Conflict('Member already exists'),
    },
    membershipWrite(member, businessName),
  ];
}

/**
 * A member's new role, if its role is still `from` (a concurrent change loses with 409), on both
 * sides; a legacy OWNS# item gives way to a MEMBER_OF# one.
 */
export function roleChangeWrites(
  member: Member,
  from: MemberRole,
  to: MemberRole,
  businessName: string,
): GuardedWrite[] {
  return [
    {
      write: {
        Update: {
          TableName: tableName(),
          Key: memberKey(member.businessId, member.id),
          UpdateExpression: 'SET #role = :to',
          ConditionExpression: '#role = :from',
          ExpressionAttributeNames: { '#role': 'role' },
          ExpressionAttributeValues: { ':from': from, ':to': to },
        },
      },
      onConditionFailed: () => new Conflict('The member changed meanwhile; try again'),
    },
    ...(member.userId
      ? [
          membershipWrite({ ...member, role: to }, businessName),
          {
            write: {
              Delete: { TableName: tableName(), Key: legacyOwnershipKey(member.userId, member.businessId) },
            },
          },
        ]
      : []),
  ];
}

/** Removes a member whose role is still `role`, and both forms of its user's side. */
export function memberRemovalWrites(member: Member, role: MemberRole): GuardedWrite[] {
  const userSide = member.userId
    ? [
        membershipKey(member.userId, member.businessId),
        legacyOwnershipKey(member.userId, member.businessId),
      ].map((Key): GuardedWrite => ({ write: { Delete: { TableName: tableName(), Key } } }))
    : [];
  return [
    {
      write: {
        Delete: {
          TableName: tableName(),
          Key: memberKey(member.businessId, member.id),
          ConditionExpression: '#role = :role',
          ExpressionAttributeNames: { '#role': 'role' },
          ExpressionAttributeValues: { ':role': role },
        },
      },
      onConditionFailed: () => new Conflict('The member changed meanwhile; try again'),
    },
    ...userSide,
  ];
}

/** Holds a transaction to `owner` still being an owner: the guard that a business keeps one. */
export function stillOwnerCheck(owner: Member): GuardedWrite {
  return {
    write: {
      ConditionCheck: {
        TableName: tableName(),
        Key: memberKey(owner.businessId, owner.id),
        ConditionExpression: '#role = :owner',
        ExpressionAttributeNames: { '#role': 'role' },
        ExpressionAttributeValues: { ':owner': 'owner' },
      },
    },
    onConditionFailed: () => new Conflict('The team changed meanwhile; try again'),
  };
}

/** The businesses the user belongs to, by name. */
export async function listMemberships(userId: string): Promise<Membership[]> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
    ExpressionAttributeValues: { ':pk': `USER#${userId}`, ':from': 'MEMBER_OF#', ':to': 'OWNS$' },
    ConsistentRead: true,
  });
  const current = items.filter((item) => String(item.sk).startsWith('MEMBER_OF#'));
  const known = new Set(current.map((item) => item.businessId));
  const memberships: Membership[] = current.map((item) => ({
    businessId: item.businessId as string,
    businessName: item.businessName as string,
    memberId: item.memberId as string,
    role: isMemberRole(String(item.role)) ? (item.role as MemberRole) : 'viewer',
  }));
  const legacy = items.filter((item) => String(item.sk).startsWith('OWNS#') && !known.has(item.businessId));
  for (const item of legacy) {
    const business = await getBusiness(item.businessId as string);
    if (!business) continue;
    memberships.push({
      businessId: business.id,
      businessName: business.name,
      memberId: business.ownerMemberId,
      role: 'owner',
    });
  }
  return memberships.sort((a, b) => a.businessName.localeCompare(b.businessName));
}
