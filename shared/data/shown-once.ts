import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '#shared/aws/dynamodb.ts';

/**
 * A value shown once on the page a post redirects to (issue 35, post/redirect/get): a new API
 * key's secret, a webhook subscription's new signing secret. The post keeps it here, sealed (see
 * `shared/operations/shown-once.ts`: only the browser's session cookie opens it), and the page
 * that shows it takes it: read and deleted in one DeleteItem, so a reload finds nothing and makes
 * nothing.
 *
 * Key: pk = SESSION#<sha256(session id), hex> (the session's partition), sk = SHOWN_ONCE#<kind>.
 * One per kind and session: a second key made before the first was shown replaces it. `ttl` (epoch
 * seconds) is `expiresAt`; DynamoDB deletes late, so the taker checks the time.
 *
 * Cost: the post's PutItem, 1 WCU; the page's DeleteItem with ReturnValues ALL_OLD, 1 WCU.
 */
export interface SealedValue {
  /** AES-256-GCM: the 12-byte nonce, the ciphertext and the 16-byte tag, base64url each. */
  iv: string;
  sealed: string;
  tag: string;
  expiresAt: string;
}

const keyOf = (sessionIdHash: string, kind: string) => ({
  pk: `SESSION#${sessionIdHash}`,
  sk: `SHOWN_ONCE#${kind}`,
});

export async function putShownOnce(sessionIdHash: string, kind: string, value: SealedValue): Promise<void> {
  await documentClient.send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...keyOf(sessionIdHash, kind),
        entity: 'shown_once',
        ...value,
        ttl: Math.ceil(new Date(value.expiresAt).getTime() / 1000),
      },
    }),
  );
}

/** The value kept for the session, deleted by this very read; undefined if none was (or is no more). */
export async function takeShownOnce(sessionIdHash: string, kind: string): Promise<SealedValue | undefined> {
  const { Attributes } = await documentClient.send(
    new DeleteCommand({ TableName: tableName(), Key: keyOf(sessionIdHash, kind), ReturnValues: 'ALL_OLD' }),
  );
  if (!Attributes) return undefined;
  return {
    iv: String(Attributes.iv),
    sealed: String(Attributes.sealed),
    tag: String(Attributes.tag),
    expiresAt: String(Attributes.expiresAt),
  };
}
