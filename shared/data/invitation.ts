import { createHash } from 'node:crypto';
import { tableName } from '#shared/aws/dynamodb.ts';
import { queryAll } from '#shared/data/query.ts';
import type { GuardedWrite } from '#shared/data/transact.ts';
import { isMemberRole, type MemberRole } from '#shared/domain/dashboard-roles.ts';
import { Conflict } from '#shared/errors/request.ts';

/**
 * Invitation: a phone number asked to join a business with a role. Whoever proves that phone (the
 * sign-in code) joins: at the next sign-in, or instead of a sign-up when the phone has no account.
 *
 * Keys (two items, written and deleted together):
 * - pk = PHONE#<phone>, sk = INVITE#<businessId>: found at sign-in, by the phone just proven.
 * - pk = BIZ#<businessId>, sk = INVITE#<phone>: the business's pending invitations (team page).
 * One pending invitation per phone and business: inviting again replaces it (new role, new time).
 * `ttl` (epoch seconds) is `expiresAt`; DynamoDB deletes late, so reads check the time themselves.
 *
 * Access patterns and cost (items ~300 bytes):
 * - invite: TransactWriteItems of 2 puts, 4 WCU.
 * - a phone's invitations, at each sign-in: Query, strongly consistent, 1 RCU.
 * - a business's invitations: Query pk, begins_with(sk, "INVITE#"), 0.5 RCU per 4 KB.
 * - accept: 2 deletes (the phone's under `attribute_exists`, so it is accepted once) in the
 *   transaction that writes the member and its membership, 8 WCU in all.
 */
export interface Invitation {
  businessId: string;
  businessName: string;
  phone: string;
  role: MemberRole;
  firstName: string;
  lastName: string;
  invitedByMemberId: string;
  createdAt: string;
  expiresAt: string;
}

export const invitationLifetimeMs = 7 * 24 * 3_600_000;
/** Pending invitations a business may hold: each one sent an SMS the service pays for. */
export const maxPendingInvitations = 20;

const phoneSideKey = (phone: string, businessId: string) => ({
  pk: `PHONE#${phone}`,
  sk: `INVITE#${businessId}`,
});
const businessSideKey = (businessId: string, phone: string) => ({
  pk: `BIZ#${businessId}`,
  sk: `INVITE#${phone}`,
});

export function invitationWrites(invitation: Invitation): GuardedWrite[] {
  const ttl = Math.ceil(new Date(invitation.expiresAt).getTime() / 1000);
  return [
    phoneSideKey(invitation.phone, invitation.businessId),
    businessSideKey(invitation.businessId, invitation.phone),
  ].map((key) => ({
    write: { Put: { TableName: tableName(), Item: { ...key, entity: 'invitation', ...invitation, ttl } } },
  }));
}

/** Takes the invitation once: a second acceptance (another tab, a retry) fails with 409. */
export function acceptInvitationWrites(invitation: Invitation): GuardedWrite[] {
  return [
    {
      write: {
        Delete: {
          TableName: tableName(),
          Key: phoneSideKey(invitation.phone, invitation.businessId),
          ConditionExpression: 'attribute_exists(pk) AND createdAt = :created',
          ExpressionAttributeValues: { ':created': invitation.createdAt },
        },
      },
      onConditionFailed: () => new Conflict('The invitation was already accepted or replaced'),
    },
    {
      write: {
        Delete: { TableName: tableName(), Key: businessSideKey(invitation.businessId, invitation.phone) },
      },
    },
  ];
}

/**
 * An invitation's id in the team page's links (its cancellation): a digest of what makes it this
 * one (business, phone, the instant it was made), so the phone is not in any address, and
 * inviting the same phone again (a new instant) makes a new id: a page still showing the old one
 * cancels nothing.
 */
export const invitationIdOf = (invitation: Pick<Invitation, 'businessId' | 'phone' | 'createdAt'>) =>
  createHash('sha256')
    .update(`${invitation.businessId}|${invitation.phone}|${invitation.createdAt}`)
    .digest('base64url')
    .slice(0, 22);

/**
 * Cancels the invitation as it was read: both items deleted, the phone's under the condition
 * that it is still this one, so one accepted meanwhile (a member now) or replaced is left alone (409).
 */
export function cancelInvitationWrites(invitation: Invitation): GuardedWrite[] {
  const [phoneSide, businessSide] = acceptInvitationWrites(invitation);
  return [
    {
      ...(phoneSide as GuardedWrite),
      onConditionFailed: () => new Conflict('The invitation was accepted or replaced meanwhile'),
    },
    businessSide as GuardedWrite,
  ];
}

function toInvitation(item: Record<string, unknown>): Invitation {
  const role = String(item.role);
  return {
    businessId: item.businessId as string,
    businessName: item.businessName as string,
    phone: item.phone as string,
    role: isMemberRole(role) ? role : 'viewer',
    firstName: item.firstName as string,
    lastName: item.lastName as string,
    invitedByMemberId: item.invitedByMemberId as string,
    createdAt: item.createdAt as string,
    expiresAt: item.expiresAt as string,
  };
}

const live = (now: Date) => (invitation: Invitation) => new Date(invitation.expiresAt) > now;

/** The phone's live invitations, oldest first. */
export async function invitationsOfPhone(phone: string, now = new Date()): Promise<Invitation[]> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': `PHONE#${phone}`, ':prefix': 'INVITE#' },
    ConsistentRead: true,
  });
  return items
    .map(toInvitation)
    .filter(live(now))
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

/** The business's live invitations, newest first. */
export async function invitationsOfBusiness(businessId: string, now = new Date()): Promise<Invitation[]> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': `BIZ#${businessId}`, ':prefix': 'INVITE#' },
  });
  return items
    .map(toInvitation)
    .filter(live(now))
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}
