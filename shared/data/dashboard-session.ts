import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '#shared/aws/dynamodb.ts';
import { queryAll } from '#shared/data/query.ts';

/**
 * Dashboard session: a person signed in on the dashboard. The browser holds a random opaque id
 * (32 bytes) in a cookie; the table holds only its SHA-256, so a copy of the table (a backup, a
 * leaked export) opens no session. The id is 256 random bits, so an unsalted hash is enough.
 *
 * Keys:
 * - pk = SESSION#<sha256(id), hex>, sk = SESSION: the session. `ttl` (epoch seconds) is when it
 *   ends if nothing happens: the sooner of 30 minutes after it was last seen and 12 hours after
 *   it began. DynamoDB deletes expired items late (up to days), so every read checks the times.
 * - pk = USER#<userId>, sk = SESSION#<sha256(id), hex>: the user's sessions, for "sign out
 *   everywhere". Its `ttl` is the absolute end (12 hours), never moved, so using a session costs
 *   no write here. A strongly consistent query of the user's partition (not a GSI, which lags):
 *   a session begun a second before "sign out everywhere" ends with the others.
 *
 * Access patterns and cost (items well under 1 KB):
 * - sign-in: 2 PutItems, 2 WCU (the user's side first: a session is never left out of it).
 * - every dashboard request: GetItem, strongly consistent (the page right after sign-in must find
 *   it), 1 RCU; at most every `touchEveryMs` an UpdateItem of lastSeen and ttl, 1 WCU.
 * - choosing a business: UpdateItem, 1 WCU.
 * - sign-out: 2 DeleteItems, 2 WCU. Everywhere: Query pk = USER#<userId>,
 *   begins_with(sk, "SESSION#"), strongly consistent, 1 RCU per 4 KB (~25 sessions), then
 *   2 DeleteItems a session.
 */
export interface DashboardSession {
  /** The id's hash: the item's key, never the id itself. */
  idHash: string;
  userId: string;
  /** The business the person acts for, and as which member; absent until one is chosen. */
  businessId?: string | undefined;
  memberId?: string | undefined;
  /** Sent in every state-changing form of the session and compared on post. */
  csrfToken: string;
  createdAt: string;
  lastSeenAt: string;
}

export const idleLimitMs = 30 * 60_000;
export const absoluteLimitMs = 12 * 3_600_000;
/** lastSeen is rewritten at most this often: one write per few minutes of use, not per page. */
export const touchEveryMs = 5 * 60_000;

const sessionKey = (idHash: string) => ({ pk: `SESSION#${idHash}`, sk: 'SESSION' });
const userSessionKey = (userId: string, idHash: string) => ({
  pk: `USER#${userId}`,
  sk: `SESSION#${idHash}`,
});

/** When a session ends if unused from `lastSeen` on: idle limit, capped by the absolute one. */
export const sessionEndsAt = (session: Pick<DashboardSession, 'createdAt' | 'lastSeenAt'>): number =>
  Math.min(
    new Date(session.lastSeenAt).getTime() + idleLimitMs,
    new Date(session.createdAt).getTime() + absoluteLimitMs,
  );

const ttlOf = (session: DashboardSession) => Math.ceil(sessionEndsAt(session) / 1000);

export async function putSession(session: DashboardSession): Promise<void> {
  const absoluteEnd = Math.ceil((new Date(session.createdAt).getTime() + absoluteLimitMs) / 1000);
  await documentClient.send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...userSessionKey(session.userId, session.idHash), entity: 'user_session', ttl: absoluteEnd },
    }),
  );
  await documentClient.send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...sessionKey(session.idHash), entity: 'dashboard_session', ...session, ttl: ttlOf(session) },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
}

export async function getSession(idHash: string): Promise<DashboardSession | undefined> {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: tableName(), Key: sessionKey(idHash), ConsistentRead: true }),
  );
  if (!Item) return undefined;
  return {
    idHash: Item.idHash as string,
    userId: Item.userId as string,
    businessId: Item.businessId as string | undefined,
    memberId: Item.memberId as string | undefined,
    csrfToken: Item.csrfToken as string,
    createdAt: Item.createdAt as string,
    lastSeenAt: Item.lastSeenAt as string,
  };
}

/** Moves lastSeen on; does nothing if the session was ended meanwhile (it is not brought back). */
export async function touchSession(session: DashboardSession, at: Date): Promise<void> {
  const touched = { ...session, lastSeenAt: at.toISOString() };
  try {
    await documentClient.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: sessionKey(session.idHash),
        UpdateExpression: 'SET lastSeenAt = :at, #ttl = :ttl',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#ttl': 'ttl' },
        ExpressionAttributeValues: { ':at': touched.lastSeenAt, ':ttl': ttlOf(touched) },
      }),
    );
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
}

/** The business the session acts for from now on; nothing if the session was ended meanwhile. */
export async function setSessionBusiness(
  idHash: string,
  businessId: string,
  memberId: string,
): Promise<void> {
  try {
    await documentClient.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: sessionKey(idHash),
        UpdateExpression: 'SET businessId = :business, memberId = :member',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':business': businessId, ':member': memberId },
      }),
    );
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
}

export async function deleteSession(session: Pick<DashboardSession, 'idHash' | 'userId'>): Promise<void> {
  await documentClient.send(new DeleteCommand({ TableName: tableName(), Key: sessionKey(session.idHash) }));
  await documentClient.send(
    new DeleteCommand({ TableName: tableName(), Key: userSessionKey(session.userId, session.idHash) }),
  );
}

/** The hashes of the user's sessions that may still be live (strongly consistent). */
export async function sessionHashesOfUser(userId: string): Promise<string[]> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': `USER#${userId}`, ':prefix': 'SESSION#' },
    ConsistentRead: true,
  });
  return items.map((item) => String(item.sk).slice('SESSION#'.length));
}
