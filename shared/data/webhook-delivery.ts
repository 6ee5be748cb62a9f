import { createHash, randomBytes } from 'node:crypto';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '#shared/aws/dynamodb.ts';

/**
 * Webhook delivery: one event sent to one subscription, with the log of every attempt. The body is
 * kept as the exact string that is signed and sent, so every attempt and every re-send carries the
 * same bytes (and the same `id` receivers dedupe on). It is stored deflated (`bodyDeflated`, raw
 * DEFLATE with a preset dictionary of the event bodies' field names, lossless): a payment's body
 * of ~550 bytes takes ~210, which keeps the item, with its first attempt, under 1 KB, so creating
 * it and recording that attempt cost 1 WCU each instead of 2.
 *
 * The id of a first delivery is derived from the event and the subscription, so dispatching the
 * same event twice (the sweeper after a crash, two dispatchers racing) finds the delivery already
 * there instead of making a second one. A re-send is a new delivery with an id of its own and
 * `resendOf` pointing at the original.
 *
 * Keys:
 * - pk = BIZ#<businessId>, sk = WHDELIVERY#<id>: read by id under the caller's business, so
 *   another business's delivery is not found. Ids are time-ordered UUIDs (a first delivery's time
 *   is its event's, a re-send's its own), so the business's deliveries, newest first, are read
 *   from these keys: no index to write, which halves the cost of making a delivery and of
 *   recording each attempt. (Deliveries made before, with hash-only ids, list out of order until
 *   they expire; their `gsi1` attributes are ignored.)
 * - ttl: the log is kept `retentionDays`, which bounds what a listing reads.
 *
 * Attempts are counted here, not from the queue's receives: `attemptNumber` is the number of the
 * attempt under way or next. A sender claims an attempt before its POST (`claimedUntil`, a lease as
 * long as a receiver may take and a margin), on condition that the attempt is the delivery's next
 * and nobody holds it, so however many copies of its queue message there are, one sender at a time
 * attempts a delivery. A first delivery is made by the sender at its first attempt, the put that
 * makes it being that attempt's claim; the write that records an attempt lets go of the claim, and
 * a failed one counts the next attempt. A receive that never reaches the sender writes nothing.
 *
 * Access patterns and cost (a payment's delivery is ~0.8 KB with its body deflated, plus ~0.1 KB
 * per attempt with a short answer, up to ~1.2 KB with a long answer's excerpt):
 * - create, claiming its first attempt: conditional PutItem, 1 WCU, as the capacity bench measures
 *   (when it exists already, 1 RCU more to read it).
 * - claim a later attempt (a retry, a re-send's first): conditional UpdateItem, 1 WCU.
 * - get by id (the sender, a re-send): GetItem, 0.5 RCU (1 consistent).
 * - record an attempt, and count the next: conditional UpdateItem, one WCU per KB of the item:
 *   1 WCU for a first attempt with a short answer, more as attempts and long answers add up.
 *   A delivered first attempt therefore costs 2 WCU in all, its making (and claim) included; each
 *   retry 1 WCU more for its claim.
 * - list: Query on the business's partition, `WHDELIVERY#` keys, newest first, filtered by status
 *   (and store for scoped keys), reading every delivery of the retention window once to count
 *   `total`: 0.5 RCU per 4 KB.
 */
export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export const deliveryStatuses = [
  'pending',
  'delivered',
  'failed',
] as const satisfies readonly DeliveryStatus[];

export interface DeliveryAttempt {
  at: string;
  /** The receiver's HTTP status; absent when no answer came (timeout, refused address, network). */
  status?: number | undefined;
  error?: string | undefined;
  durationMs: number;
  /** The first KB of the answer's body. */
  responseExcerpt: string;
}

export interface WebhookDelivery {
  id: string;
  businessId: string;
  /** The store the event concerns, when it concerns one: keys scoped to a store see only theirs. */
  storeId?: string | undefined;
  subscriptionId: string;
  eventId: string;
  eventName: string;
  url: string;
  body: string;
  status: DeliveryStatus;
  attempts: DeliveryAttempt[];
  /**
   * The number of the attempt under way or next (1 from the making), counted before its send;
   * absent on deliveries made before attempts were counted here, whose next is `attempts.length + 1`.
   */
  attemptNumber?: number | undefined;
  /** Why a delivery ended `failed`. */
  failureReason?: string | undefined;
  /** Until when a sender holds the attempt under way (ISO 8601); absent when none does. */
  claimedUntil?: string | undefined;
  /** The holding sender's token: its own writes name it, so an answer lost on the way is recognised. */
  claimToken?: string | undefined;
  /** The token of the claim whose attempt was recorded last. */
  lastClaimToken?: string | undefined;
  createdAt: string;
  updatedAt: string;
  resendOf?: string | undefined;
}

const retentionDays = 30;

/**
 * What the bodies of transaction events look like, for DEFLATE to refer back to. Never edit it:
 * stored bodies are inflated with these very bytes (a new dictionary needs a new attribute name).
 */
const bodyDictionary = Buffer.from(
  '{"id":"","amount":{"amount":,"currency":"XOF"},"fees":{"amount":,"currency":"XOF"},"status":"success",' +
    '"counterpartLabel":"","counterpartIdentifier":"","paymentMethod":"","transactionType":"payment",' +
    '"businessName":"","storeName":"","storeId":"","description":"Payment ","executedAt":"",' +
    '"transactionDetails":{"id":"","reference":"","paymentLinkId":""}}',
);

const deflateBody = (body: string) =>
  deflateRawSync(Buffer.from(body, 'utf8'), { level: 9, dictionary: bodyDictionary });
const inflateBody = (stored: Uint8Array) =>
  inflateRawSync(stored, { dictionary: bodyDictionary }).toString('utf8');
export const responseExcerptBytes = 1024;

export const deliveryKey = (businessId: string, id: string) => ({
  pk: `BIZ#${businessId}`,
  sk: `WHDELIVERY#${id}`,
});

/**
 * A UUID in the RFC 9562 version 7 layout: its first 48 bits are `at` in milliseconds, so ids sort
 * by time and the log is read newest first from the main key, with no index to write; the other
 * bits are `rest`.
 */
function timeOrderedUuid(at: string, rest: string): string {
  const time = Date.parse(at).toString(16).padStart(12, '0');
  const variant = ((Number.parseInt(rest.charAt(16), 16) & 0x3) | 0x8).toString(16);
  return `${time.slice(0, 8)}-${time.slice(8, 12)}-7${rest.slice(13, 16)}-${variant}${rest.slice(17, 20)}-${rest.slice(20, 32)}`;
}

/** The id of an event's first delivery to a subscription: its time the event's, its rest their SHA-256. */
export function deliveryIdFor(event: { id: string; createdAt: string }, subscriptionId: string): string {
  return timeOrderedUuid(
    event.createdAt,
    createHash('sha256').update(`${event.id}\n${subscriptionId}`).digest('hex'),
  );
}

/** The id of a re-send, made at `at`. */
export const resendIdAt = (at: string) => timeOrderedUuid(at, randomBytes(16).toString('hex'));

function toDelivery(item: Record<string, unknown>): WebhookDelivery {
  const {
    pk: _pk,
    sk: _sk,
    gsi1pk: _gpk,
    gsi1sk: _gsk,
    entity: _entity,
    ttl: _ttl,
    bodyDeflated,
    ...delivery
  } = item;
  // Deliveries stored before the body was deflated keep it as `body`.
  const body = bodyDeflated ? inflateBody(bodyDeflated as Uint8Array) : delivery.body;
  return { ...delivery, body } as unknown as WebhookDelivery;
}

/**
 * Puts the delivery unless one with its id exists (with `claimedUntil`, its first attempt claimed).
 * Answers the delivery that is stored afterwards: this one if it was created, the existing one
 * otherwise.
 */
export async function createDelivery(
  delivery: WebhookDelivery,
): Promise<{ created: boolean; delivery: WebhookDelivery }> {
  const { body, ...stored } = delivery;
  try {
    await documentClient.send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...deliveryKey(delivery.businessId, delivery.id),
          entity: 'webhook_delivery',
          ttl: Math.floor(Date.parse(delivery.createdAt) / 1000) + retentionDays * 24 * 60 * 60,
          ...stored,
          // The first attempt is counted by the write that makes the delivery.
          attemptNumber: 1,
          bodyDeflated: deflateBody(body),
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
    return { created: true, delivery };
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
    const existing = await getDelivery(delivery.businessId, delivery.id, true);
    if (!existing) throw error;
    return { created: false, delivery: existing };
  }
}

export async function getDelivery(
  businessId: string,
  id: string,
  consistent = false,
): Promise<WebhookDelivery | undefined> {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: tableName(), Key: deliveryKey(businessId, id), ConsistentRead: consistent }),
  );
  return Item ? toDelivery(Item) : undefined;
}

/** The number of the attempt a delivery is at: counted in the record, or inferred for an older one. */
export const attemptNumberOf = (delivery: Pick<WebhookDelivery, 'attemptNumber' | 'attempts'>) =>
  delivery.attemptNumber ?? delivery.attempts.length + 1;

/** A delivery's `number`-th attempt is the one it is at (for deliveries older than the count: after those recorded). */
const atAttempt =
  '(attemptNumber = :number OR (attribute_not_exists(attemptNumber) AND size(attempts) = :made))';

/** A sender's hold on an attempt: until when, and its token. */
export interface Claim {
  until: string;
  token: string;
}

/**
 * Claims the `number`-th attempt, if the delivery is pending, at that attempt, and no sender holds
 * it (or its hold has lapsed by `now`). Answers whether this sender now holds it: a claim whose
 * answer was lost (the SDK's retry then finds the condition false) is recognised by its token.
 */
export async function claimAttempt(
  delivery: Pick<WebhookDelivery, 'businessId' | 'id'>,
  number: number,
  claim: Claim,
  now: string,
): Promise<boolean> {
  const claimed = await updatePending(
    delivery,
    'SET claimedUntil = :until, claimToken = :token',
    { ':until': claim.until, ':token': claim.token, ':now': now, ':number': number, ':made': number - 1 },
    `${atAttempt} AND (attribute_not_exists(claimedUntil) OR claimedUntil <= :now)`,
  );
  return claimed || (await getDelivery(delivery.businessId, delivery.id, true))?.claimToken === claim.token;
}

/**
 * Appends the `number`-th attempt, made under `claim`, and moves the delivery to `status`, letting
 * the claim go; a failed attempt that leaves it pending counts the next one in the same write. A
 * sender whose claim lapsed and was taken by another records nothing. Answers whether the attempt
 * is recorded (by this write, or by the first try of it whose answer was lost).
 */
export async function recordAttempt(
  delivery: Pick<WebhookDelivery, 'businessId' | 'id'>,
  attempt: DeliveryAttempt,
  status: DeliveryStatus,
  options: { number: number; claim: Claim; failureReason?: string | undefined },
): Promise<boolean> {
  const { number, failureReason } = options;
  const recorded = await updatePending(
    delivery,
    'SET attempts = list_append(attempts, :attempt), #status = :status, updatedAt = :now, lastClaimToken = :token' +
      (status === 'pending' ? ', attemptNumber = :next' : ', attemptNumber = :number') +
      (failureReason ? ', failureReason = :reason' : '') +
      ' REMOVE claimedUntil, claimToken',
    {
      ':attempt': [attempt],
      ':status': status,
      ':now': attempt.at,
      ':number': number,
      ':made': number - 1,
      ':token': options.claim.token,
      ...(status === 'pending' ? { ':next': number + 1 } : {}),
      ...(failureReason ? { ':reason': failureReason } : {}),
    },
    `${atAttempt} AND claimToken = :token`,
  );
  return (
    recorded ||
    (await getDelivery(delivery.businessId, delivery.id, true))?.lastClaimToken === options.claim.token
  );
}

/** Ends a pending delivery as failed without an attempt (its subscription is gone, say). */
export async function failDelivery(
  delivery: Pick<WebhookDelivery, 'businessId' | 'id'>,
  reason: string,
): Promise<boolean> {
  return updatePending(
    delivery,
    'SET #status = :status, failureReason = :reason, updatedAt = :now REMOVE claimedUntil',
    {
      ':status': 'failed',
      ':reason': reason,
      ':now': new Date().toISOString(),
    },
  );
}

async function updatePending(
  delivery: Pick<WebhookDelivery, 'businessId' | 'id'>,
  update: string,
  values: Record<string, unknown>,
  condition?: string,
): Promise<boolean> {
  try {
    await documentClient.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: deliveryKey(delivery.businessId, delivery.id),
        UpdateExpression: update,
        ConditionExpression: `#status = :pending${condition ? ` AND ${condition}` : ''}`,
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ...values, ':pending': 'pending' },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

export interface DeliveryListing {
  total: number;
  items: WebhookDelivery[];
}

/**
 * A page of the business's deliveries, newest first, optionally of one status and one store.
 * `total` counts every match, so the whole retention window is read once.
 */
export async function listDeliveries(
  businessId: string,
  query: { status?: DeliveryStatus | undefined; storeId?: string | undefined; page: number; limit: number },
): Promise<DeliveryListing> {
  const filters: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':pk': `BIZ#${businessId}`, ':prefix': 'WHDELIVERY#' };
  if (query.status) {
    filters.push('#status = :status');
    names['#status'] = 'status';
    values[':status'] = query.status;
  }
  if (query.storeId) {
    filters.push('storeId = :storeId');
    values[':storeId'] = query.storeId;
  }
  const first = (query.page - 1) * query.limit;
  const items: WebhookDelivery[] = [];
  let total = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await documentClient.send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ...(filters.length ? { FilterExpression: filters.join(' AND ') } : {}),
        ...(Object.keys(names).length ? { ExpressionAttributeNames: names } : {}),
        ExpressionAttributeValues: values,
        ScanIndexForward: false,
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of page.Items ?? []) {
      if (total >= first && items.length < query.limit) items.push(toDelivery(item));
      total++;
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return { total, items };
}

/**
 * The business's deliveries of some events (a transaction's, its refunds', its escrow's), newest
 * first, re-sends included. No index by event: the business's log is read whole through a filter
 * (its retention window, as a listing's `total` reads it), at most `limit` kept.
 */
export async function deliveriesOfEvents(
  businessId: string,
  eventIds: readonly string[],
  limit = 50,
): Promise<WebhookDelivery[]> {
  if (eventIds.length === 0) return [];
  const values: Record<string, unknown> = { ':pk': `BIZ#${businessId}`, ':prefix': 'WHDELIVERY#' };
  eventIds.forEach((eventId, index) => {
    values[`:e${index}`] = eventId;
  });
  const items: WebhookDelivery[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await documentClient.send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        FilterExpression: `eventId IN (${eventIds.map((_, index) => `:e${index}`).join(', ')})`,
        ExpressionAttributeValues: values,
        ScanIndexForward: false,
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of page.Items ?? []) items.push(toDelivery(item));
    startKey = page.LastEvaluatedKey;
  } while (startKey && items.length < limit);
  return items.slice(0, limit);
}
