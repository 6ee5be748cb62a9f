import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '#shared/aws/dynamodb.ts';

/**
 * Dashboard session: a person signed in on the dashboard. The browser holds a random opaque id
 * (32 bytes) in a cookie; the table holds only its SHA-256, so a copy of the table (a backup, a
 * leaked export) opens no session. The id is 256 random bits, so an unsalted hash is enough.
 *
 * Key: pk = SESSION#<sha256(id), hex>, sk = SESSION. `ttl` (epoch seconds) is when it ends if
 * nothing happens: the sooner of 30 minutes after it was last seen and 12 hours after it began.
 * DynamoDB deletes expired items late (up to days), so every read checks the times itself.
 *
 * Access patterns and cost (items well under 1 KB):
 * - sign-in: PutItem, 1 WCU.
 * - every dashboard request: GetItem, strongly consistent (the page right after sign-in must find
 *   it), 1 RCU; at most every `touchEveryMs` an UpdateItem of lastSeen and ttl, 1 WCU.
 * - sign-out: DeleteItem, 1 WCU.
 */
export interface DashboardSession {
  /** The id's hash: the item's key, never the id itself. */
  idHash: string;
  userId: string;
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

/** When a session ends if unused from `lastSeen` on: idle limit, capped by the absolute one. */
export const sessionEndsAt = (session: Pick<DashboardSession, 'createdAt' | 'lastSeenAt'>): number =>
  Math.min(
    new Date(session.lastSeenAt).getTime() + idleLimitMs,
    new Date(session.createdAt).getTime() + absoluteLimitMs,
  );

const ttlOf = (session: DashboardSession) => Math.ceil(sessionEndsAt(session) / 1000);

export async function putSession(session: DashboardSession): Promise<void> {
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

export async function deleteSession(idHash: string): Promise<void> {
  await documentClient.send(new DeleteCommand({ TableName: tableName(), Key: sessionKey(idHash) }));
}
