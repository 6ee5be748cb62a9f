import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '#shared/aws/dynamodb.ts';
import type { GuardedWrite } from '#shared/data/transact.ts';
import { Conflict } from '#shared/errors/request.ts';
import { BusinessLinkRequestNotFound } from '#shared/errors/service-providers.ts';

/**
 * Business link request: a service provider asks to act for a business an existing user owns; the
 * owner approves or declines on a hosted page with a one-time code sent to their phone.
 *
 * Key: pk = LINKREQ#<id>, sk = LINKREQ. Only the request's provider sees it (checked on read), so
 * another provider's request is not found.
 *
 * Access patterns and cost (an item is ~600 bytes):
 * - get by id (provider's GET, the consent page): GetItem, strongly consistent, 1 RCU.
 * - create: TransactWriteItems with its `pending` event, one per business the user owns.
 * - a wrong code: conditional UpdateItem on the attempt count, 1 WCU.
 * - approve, decline, expire: TransactWriteItems with the link (approve) and the outbox event.
 */
export type LinkRequestStatus = 'pending' | 'approved' | 'declined' | 'expired';

export interface LinkRequest {
  id: string;
  status: LinkRequestStatus;
  merchantBusinessId: string;
  merchantBusinessName: string;
  serviceProviderBusinessId: string;
  serviceProviderBusinessName: string;
  serviceProviderMemberId: string;
  ownerPhone: string;
  expiresAt: string;
  createdAt: string;
  updatedAt: string;
  /** SHA-256 of the one-time code sent to the owner; the code itself is never stored. */
  codeHash: string;
  codeAttempts: number;
  /** Why a request was declined without the owner's choice (`too_many_code_attempts`). */
  declinedReason?: string | undefined;
}

const linkRequestKey = (id: string) => ({ pk: `LINKREQ#${id}`, sk: 'LINKREQ' });

export function newLinkRequestWrite(request: LinkRequest): GuardedWrite {
  return {
    write: {
      Put: {
        TableName: tableName(),
        Item: { ...linkRequestKey(request.id), entity: 'business_link_request', ...request },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
  };
}

export async function getLinkRequest(id: string): Promise<LinkRequest | undefined> {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: tableName(), Key: linkRequestKey(id), ConsistentRead: true }),
  );
  if (!Item) return undefined;
  const { pk, sk, entity, ...request } = Item;
  return request as LinkRequest;
}

/**
 * The write that moves a pending request to its outcome; it fails when the request is no longer
 * pending (another consent, the sandbox helper or the expiry got there first).
 */
export function settleLinkRequestWrite(
  id: string,
  status: Exclude<LinkRequestStatus, 'pending'>,
  at: string,
  declinedReason?: string,
): GuardedWrite {
  return {
    write: {
      Update: {
        TableName: tableName(),
        Key: linkRequestKey(id),
        UpdateExpression: `SET #status = :status, updatedAt = :at${declinedReason ? ', declinedReason = :reason' : ''}`,
        ConditionExpression: '#status = :pending',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':status': status,
          ':at': at,
          ':pending': 'pending',
          ...(declinedReason ? { ':reason': declinedReason } : {}),
        },
      },
    },
    onConditionFailed: () => new Conflict('The link request is no longer pending'),
  };
}

/** Counts a wrong code; fails if another attempt was counted meanwhile (each try counts once). */
export function wrongCodeWrite(id: string, seenAttempts: number, at: string): GuardedWrite {
  return {
    write: {
      Update: {
        TableName: tableName(),
        Key: linkRequestKey(id),
        UpdateExpression: 'SET codeAttempts = :next, updatedAt = :at',
        ConditionExpression: 'codeAttempts = :seen AND #status = :pending',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':next': seenAttempts + 1,
          ':seen': seenAttempts,
          ':at': at,
          ':pending': 'pending',
        },
      },
    },
    onConditionFailed: () => new BusinessLinkRequestNotFound(),
  };
}
