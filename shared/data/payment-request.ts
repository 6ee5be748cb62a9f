import { createHash } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '#shared/aws/dynamodb.ts';
import { deviceKey } from '#shared/data/device.ts';
import {
  claimReference,
  claimUsableMs,
  paymentReferenceKey,
  referenceClaimItem,
} from '#shared/data/payment-reference.ts';
import { queryShardsBefore } from '#shared/data/query.ts';
import { type GuardedWrite, transactWrite } from '#shared/data/transact.ts';
import type { Money } from '#shared/domain/money.ts';
import {
  type CollectionFailure,
  collectionGraceMs,
  defaultLifetimeMs,
  type EndReason,
} from '#shared/domain/payment-lifetime.ts';
import type { ProviderCode } from '#shared/domain/payment-methods.ts';
import type { UemoaCountry } from '#shared/domain/uemoa-countries.ts';
import { DeviceNotFound } from '#shared/errors/businesses.ts';
import type { DomainError } from '#shared/errors/domain-error.ts';
import { PaymentRequestExistsWithReference } from '#shared/errors/payment-requests.ts';

/**
 * Payment request: an amount to collect for a store, by redirect (hosted page, then the provider)
 * or soundbox (a QR on a terminal), payable until `expiresAt`. `pending` until it ends, once: a
 * verified provider callback makes it `success` or `error`, or it ends `error` unpaid (expired,
 * cancelled by the merchant, abandoned by the payer). On the hosted page a failed collection
 * leaves it `pending` (`attemptError`), for the payer to try again; the next collection replaces
 * it. When it has ended is decided by shared/domain/payment-lifetime.ts, here as conditions.
 *
 * Keys:
 * - pk = PAYREQ#<id>, sk = PAYREQ: the request. Callers holding only the id (the hosted page,
 *   provider callbacks) read it directly; a business's read checks `businessId`, so another
 *   business's id is not found.
 * - pk = BIZ#<businessId>, sk = PAYREF#<reference>: the reference's claim; references are unique
 *   per business.
 * - gsi1pk = PAYREQ#POLL#<shard>, gsi1sk = <next poll, ISO time>#<id>, on the request itself while
 *   a live provider's collection is pending: the sparse index the collection sweep polls. Set when
 *   the collection starts, moved later after each pending answer, removed on completion, on a failed
 *   attempt and on an end.
 *
 * The store is not checked inside the creating transaction: it was read just before (the caller's
 * store, in the request's currency), and stores are never deleted.
 *
 * Access patterns and cost (the item stays under 1 KB, completed included; the bench says how
 * far under):
 * - get by id, for the business or by id alone (integrations poll it): GetItem, eventually
 *   consistent, 0.5 RCU.
 * - create: the reference's claim then the request, two conditional puts (1 WCU each, 2 WCU,
 *   shared/data/payment-reference.ts); with a device to check (soundbox), a link's claim or an
 *   escrow, one transaction of them all (claim and request 4 WCU, the device check 2 more: an update that
 *   notes the request as the device's last payment).
 * - record the provider's start: UpdateItem, 1 WCU (the checkout URL and QR are handed on at once,
 *   never stored: the completed request stays under 1 KB with `expiresAt`).
 * - complete: part of the completion transaction (shared/settlement/collections.ts), 2 WCU.
 * - a failed attempt on the page: UpdateItem, 1 WCU (+1 when it leaves the polling index).
 * - end unpaid (expired, cancelled, abandoned): part of a transaction like a failed completion's,
 *   2 WCU (+1 when it leaves the polling index).
 * - expiry costs the paid path nothing: `expiresAt` rides on the item, and the check at expiry is
 *   a delayed queue message the table's stream sends (shared/operations/payment-expiry.ts).
 * - collections to poll: one Query per shard on gsi1 (8 shards), 0.5 RCU per 4 KB read; each poll
 *   that finds it still pending moves it (UpdateItem, 1-4 WCU).
 */
export type PaymentRequestType = 'redirect' | 'soundbox';
export type PaymentRequestStatus = 'pending' | 'success' | 'error';

export interface CompletedTransaction {
  id: string;
  amount: Money;
  fees: Money;
  status: 'success' | 'error';
  counterpartLabel: string;
  counterpartIdentifier: string;
  description: string;
  /** `YYYY-MM-DD HH:mm:ss`, UTC: the format integrations parse. */
  executedAt: string;
}

/** What the completion needs of a request's escrow without reading it. */
export interface PaymentRequestEscrow {
  id: string;
  holdUntil: string;
}

export interface PaymentRequest {
  id: string;
  businessId: string;
  storeId: string;
  storeName: string;
  /** The store's country when the request was made: the payer page's first choice of country. */
  storeCountry?: UemoaCountry | undefined;
  reference: string;
  /** What the payer pays for, as the merchant wrote it (up to 255 characters); absent when not given. */
  description?: string | undefined;
  type: PaymentRequestType;
  paymentMethod: ProviderCode;
  amountCents: number;
  currency: string;
  /** Where the payer goes once the payment ends; a soundbox request may have none. */
  successUrl?: string | undefined;
  errorUrl?: string | undefined;
  deviceId?: string | undefined;
  forceProviderDirect: boolean;
  payerPhone?: string | undefined;
  paymentLinkId?: string | undefined;
  /** For a payment through a single-use link: its completion closes the link. */
  paymentLinkSingleUse?: boolean | undefined;
  /** The escrow the payment lands in, when a platform key asked for one. */
  escrow?: PaymentRequestEscrow | undefined;
  /** The hosted payment page of this request, answered to integrations for every type. */
  redirectUrl: string;
  status: PaymentRequestStatus;
  errorReason: string | null;
  /**
   * The provider the payer actually uses: the requested one, unless the payer chose another on
   * the hosted page. `paymentMethod` stays as the integrator sent it, since integrations compare it.
   */
  collectionMethod?: ProviderCode | undefined;
  /** The provider's id for the collection, once started; callbacks must carry it. */
  providerReference?: string | undefined;
  /**
   * Why that collection failed, when it failed on the hosted page: the request stays pending for
   * the payer to try again, and the page says why. Removed by the next collection.
   */
  attemptError?: string | undefined;
  /**
   * The collections a later one replaced (the payer went back and paid with another provider): a
   * success of one of them is known, and its money given back. Absent until a second collection
   * starts, so a request paid at the first attempt stays the size it was.
   */
  supersededCollections?: string[] | undefined;
  /** Where the payer approves, for a redirect; the string a soundbox encodes as QR. */
  checkoutUrl?: string | undefined;
  qrPayload?: string | undefined;
  transaction: CompletedTransaction | null;
  /** Until when it may be paid (ISO 8601, UTC); see shared/domain/payment-lifetime.ts. */
  expiresAt: string;
  /** What refunds of a paid request paid back (shared/data/refund.ts keeps the refunds). */
  refundedCents?: number | undefined;
  createdAt: string;
  updatedAt: string;
}

export const paymentRequestKey = (id: string) => ({ pk: `PAYREQ#${id}`, sk: 'PAYREQ' });
/**
 * `alongside`: writes that must hold together with the creation (a payment link's claim, an
 * escrow). With none and no device to check, the reference claim and the request are two puts
 * (shared/data/payment-reference.ts says why that is as safe as the transaction).
 */
export async function createPaymentRequest(
  request: PaymentRequest,
  alongside: GuardedWrite[] = [],
): Promise<void> {
  if (request.deviceId === undefined && alongside.length === 0) return createAlone(request);
  const table = tableName();
  const writes: GuardedWrite[] = [];
  if (request.deviceId !== undefined) {
    // The device's check also notes the request as its last payment (the dashboard's soundbox
    // page reads it): an update costs a transaction what the condition check it replaces did.
    writes.push({
      write: {
        Update: {
          TableName: table,
          Key: deviceKey(request.businessId, request.deviceId),
          UpdateExpression: 'SET lastPaymentRequestId = :id, lastPaymentAt = :at',
          ConditionExpression: 'storeId = :storeId',
          ExpressionAttributeValues: {
            ':storeId': request.storeId,
            ':id': request.id,
            ':at': request.createdAt,
          },
        },
      },
      onConditionFailed: () => new DeviceNotFound(),
    });
  }
  writes.push(
    {
      write: {
        Put: {
          TableName: table,
          Item: referenceClaimItem(request.businessId, request.reference, request.id),
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      onConditionFailed: () => new PaymentRequestExistsWithReference(request.reference),
    },
    {
      write: {
        Put: {
          TableName: table,
          Item: {
            ...paymentRequestKey(request.id),
            entity: 'payment_request',
            ...request,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    },
  );
  await transactWrite([...writes, ...alongside]);
}

async function createAlone(request: PaymentRequest): Promise<void> {
  const claimedAt = await claimReference(
    request.businessId,
    request.reference,
    request.id,
    async (id) => (await findPaymentRequest(id, true)) !== undefined,
  );
  // Past this, the claim may be taken over as abandoned: the request must not be put after it.
  if (Date.now() - claimedAt.getTime() > claimUsableMs)
    throw new Error(`the reference claim of payment request ${request.id} came too late to use`);
  try {
    await documentClient.send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...paymentRequestKey(request.id), entity: 'payment_request', ...request },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  } catch (error) {
    // Its id is new: an item there is this very put, retried after its answer was lost.
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
}

export async function getPaymentRequest(
  businessId: string,
  id: string,
  consistent = false,
): Promise<PaymentRequest | undefined> {
  const request = await findPaymentRequest(id, consistent);
  return request?.businessId === businessId ? request : undefined;
}

/** For callers that hold only the id: the hosted page and provider callbacks. */
export async function findPaymentRequest(
  id: string,
  consistent = false,
): Promise<PaymentRequest | undefined> {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: tableName(), Key: paymentRequestKey(id), ConsistentRead: consistent }),
  );
  return Item ? toPaymentRequest(Item) : undefined;
}

/**
 * Records where the provider's flow starts: only on a pending request before its `expiresAt`, and
 * only over the collection the caller saw (two restarts at once keep one each). The checkout URL
 * and QR are not stored: they are handed to the payer or the device at once.
 */
export async function recordCollectionStarted(
  request: PaymentRequest,
  started: {
    providerReference: string;
    paymentMethod: ProviderCode;
    payerPhone?: string | undefined;
    /** When to ask the provider first, for a provider whose status can be asked (a live one). */
    pollAt?: Date | undefined;
  },
  now = new Date(),
): Promise<boolean> {
  // The collection this one replaces.
  const superseded = request.providerReference;
  const poll = started.pollAt
    ? { ':gpk': pollShard(request.id), ':gsk': `${started.pollAt.toISOString()}#${request.id}`, ':polls': 0 }
    : undefined;
  const removed = ['attemptError', 'checkoutUrl', 'qrPayload', ...(poll ? [] : ['gsi1pk', 'gsi1sk'])];
  try {
    await documentClient.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: paymentRequestKey(request.id),
        UpdateExpression: `SET providerReference = :ref${
          superseded
            ? ', supersededCollections = list_append(if_not_exists(supersededCollections, :none), :old)'
            : ''
        }, collectionMethod = :method, payerPhone = :phone, updatedAt = :at${
          poll ? ', gsi1pk = :gpk, gsi1sk = :gsk, statusPolls = :polls' : ''
        } REMOVE ${removed.join(', ')}`,
        ConditionExpression: `#status = :pending AND ${startableBy} AND ${
          superseded ? 'providerReference = :current' : 'attribute_not_exists(providerReference)'
        }`,
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ...poll,
          ':ref': started.providerReference,
          ...(superseded ? { ':old': [superseded], ':none': [], ':current': superseded } : {}),
          ':method': started.paymentMethod,
          ':phone': started.payerPhone ?? request.payerPhone ?? null,
          ':at': now.toISOString(),
          ':now': now.toISOString(),
          ':pending': 'pending',
        },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/*
 * The lifetime rule (shared/domain/payment-lifetime.ts) as conditions, over `:now` and `:graceFrom`
 * (now less the grace). A request without `expiresAt` was made before it existed: no write holds it
 * to a time, and the operations read it as expiring 30 minutes after its creation.
 */
/** A new collection may start: before `expiresAt`, never in the grace. */
const startableBy = '(attribute_not_exists(expiresAt) OR expiresAt > :now)';
/** Not over yet: before `expiresAt`, or in the grace of a collection under way. */
const stillOpen =
  '(attribute_not_exists(expiresAt) OR expiresAt > :now OR (attribute_exists(providerReference) AND attribute_not_exists(attemptError) AND expiresAt > :graceFrom))';
/** Over: past `expiresAt`, and past the grace if a collection is under way. */
const overByTime =
  '(attribute_not_exists(expiresAt) OR (expiresAt <= :now AND (attribute_not_exists(providerReference) OR attribute_exists(attemptError) OR expiresAt <= :graceFrom)))';

const timeValues = (now: Date) => ({
  ':now': now.toISOString(),
  ':graceFrom': new Date(now.getTime() - collectionGraceMs()).toISOString(),
});

/** A request made before `expiresAt` existed reads as expiring 30 minutes after its creation. */
const legacyExpiry = (createdAt: string) => new Date(Date.parse(createdAt) + defaultLifetimeMs).toISOString();

/**
 * The payer's collection failed on the hosted page (declined, no funds): the request stays pending,
 * saying why, and leaves the polling index. Only for its current collection; false otherwise.
 */
export async function recordFailedAttempt(
  request: PaymentRequest,
  attempt: { providerReference: string; reason: string; payerPhone?: string | undefined },
): Promise<boolean> {
  try {
    await documentClient.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: paymentRequestKey(request.id),
        // The number the provider says was asked: the form offers it again, and an end carries it.
        UpdateExpression: 'SET attemptError = :reason, payerPhone = :phone REMOVE gsi1pk, gsi1sk',
        ConditionExpression: '#status = :pending AND providerReference = :ref',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':reason': attempt.reason,
          ':ref': attempt.providerReference,
          ':phone': attempt.payerPhone ?? request.payerPhone ?? null,
          ':pending': 'pending',
        },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/**
 * The provider refused the collection at once (before any money moved): the request ends in
 * error and its reference is released, so the integrator can retry with the same reference.
 */
export async function failAtOnce(request: PaymentRequest, errorReason: string): Promise<void> {
  const table = tableName();
  await transactWrite([
    {
      write: {
        Update: {
          TableName: table,
          Key: paymentRequestKey(request.id),
          UpdateExpression: 'SET #status = :error, errorReason = :reason, updatedAt = :now',
          ConditionExpression: '#status = :pending',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':error': 'error',
            ':reason': errorReason,
            ':now': new Date().toISOString(),
            ':pending': 'pending',
          },
        },
      },
    },
    {
      write: {
        Delete: { TableName: table, Key: paymentReferenceKey(request.businessId, request.reference) },
      },
    },
  ]);
}

/**
 * The write that completes a request, for the completion transaction: only from pending, only by
 * its current collection (`providerReference`), which is then the one that completed it for good,
 * and only while the request is not over (past it, the collection's money is the payer's).
 */
export function completionWrite(
  request: PaymentRequest,
  outcome: {
    status: 'success' | 'error';
    errorReason: string | null;
    transaction: CompletedTransaction;
    payerPhone?: string | undefined;
    /** Becomes `updatedAt`, which the completion is the last to set: its event's instant. */
    completedAt: string;
  },
  onAlreadyCompleted: () => DomainError,
): GuardedWrite {
  return {
    write: {
      Update: {
        TableName: tableName(),
        Key: paymentRequestKey(request.id),
        UpdateExpression:
          'SET #status = :status, errorReason = :reason, #transaction = :transaction, payerPhone = :phone, updatedAt = :at REMOVE gsi1pk, gsi1sk, attemptError',
        ConditionExpression: `#status = :pending AND providerReference = :ref AND ${stillOpen}`,
        ExpressionAttributeNames: { '#status': 'status', '#transaction': 'transaction' },
        ExpressionAttributeValues: {
          ':ref': request.providerReference ?? null,
          ':status': outcome.status,
          ':reason': outcome.errorReason,
          ':transaction': outcome.transaction,
          ':phone': outcome.payerPhone ?? request.payerPhone ?? null,
          ':at': outcome.completedAt,
          ':pending': 'pending',
          ...timeValues(new Date(outcome.completedAt)),
        },
      },
    },
    onConditionFailed: onAlreadyCompleted,
  };
}

/**
 * The write that ends an unpaid request without a provider's answer, for a transaction like a
 * failed completion's: `expired` only once over by time, the others (the merchant cancels, the
 * payer leaves) only while not over. Its collection, if any, is moved to the superseded ones: a
 * success reported for it later is the payer's money, refunded as an orphan, never credited.
 */
export function endWrite(
  request: PaymentRequest,
  outcome: { errorReason: EndReason | CollectionFailure; transaction: CompletedTransaction; endedAt: Date },
  onNotEndable: () => DomainError,
): GuardedWrite {
  const current = request.providerReference;
  return {
    write: {
      Update: {
        TableName: tableName(),
        Key: paymentRequestKey(request.id),
        UpdateExpression: `SET #status = :error, errorReason = :reason, #transaction = :transaction, updatedAt = :at${
          current
            ? ', supersededCollections = list_append(if_not_exists(supersededCollections, :none), :old)'
            : ''
        } REMOVE gsi1pk, gsi1sk, attemptError${current ? ', providerReference' : ''}`,
        ConditionExpression: `#status = :pending AND ${
          current ? 'providerReference = :current' : 'attribute_not_exists(providerReference)'
        } AND ${outcome.errorReason === 'expired' ? overByTime : stillOpen}`,
        ExpressionAttributeNames: { '#status': 'status', '#transaction': 'transaction' },
        ExpressionAttributeValues: {
          ':error': 'error',
          ':reason': outcome.errorReason,
          ':transaction': outcome.transaction,
          ':at': outcome.endedAt.toISOString(),
          ':pending': 'pending',
          ...(current ? { ':current': current, ':old': [current], ':none': [] } : {}),
          ...timeValues(outcome.endedAt),
        },
      },
    },
    onConditionFailed: onNotEndable,
  };
}

/**
 * For the transaction that records an orphan collection, what must hold of the request:
 * - `superseded`: `providerReference` is not its current collection. A request's last collection
 *   is the one that completed it, so the same collection can never both complete it and be refunded.
 * - `refused`: it is, and the request ended `error` with it (the provider collected, the service
 *   refused the money: the month's ceiling, a single-use link paid first), so the end, not a new
 *   collection, is what stands.
 */
export function orphanCollectionCheck(
  request: PaymentRequest,
  providerReference: string,
  collection: 'superseded' | 'refused',
  onFailed: () => DomainError,
): GuardedWrite {
  const refused = collection === 'refused';
  return {
    write: {
      ConditionCheck: {
        TableName: tableName(),
        Key: paymentRequestKey(request.id),
        ConditionExpression: refused
          ? 'providerReference = :ref AND #status = :error'
          : 'attribute_not_exists(providerReference) OR providerReference <> :ref',
        ...(refused ? { ExpressionAttributeNames: { '#status': 'status' } } : {}),
        ExpressionAttributeValues: refused
          ? { ':ref': providerReference, ':error': 'error' }
          : { ':ref': providerReference },
      },
    },
    onConditionFailed: onFailed,
  };
}

export function toPaymentRequest(item: Record<string, unknown>): PaymentRequest {
  const { pk: _pk, sk: _sk, entity: _entity, ...rest } = item;
  const request = rest as unknown as PaymentRequest;
  return {
    ...request,
    deviceId: request.deviceId ?? undefined,
    payerPhone: request.payerPhone ?? undefined,
    checkoutUrl: request.checkoutUrl ?? undefined,
    qrPayload: request.qrPayload ?? undefined,
    errorReason: request.errorReason ?? null,
    transaction: request.transaction ?? null,
    attemptError: request.attemptError ?? undefined,
    expiresAt: request.expiresAt ?? legacyExpiry(request.createdAt),
  };
}

const pollShards = 8;

const pollShard = (id: string) =>
  `PAYREQ#POLL#${(createHash('sha256').update(id).digest()[0] as number) % pollShards}`;

/** Pending collections of live providers whose next status query is due by `now`. */
export async function collectionsToPoll(now: Date, limit: number): Promise<PaymentRequest[]> {
  return (await queryShardsBefore('PAYREQ#POLL#', pollShards, now, limit)).map((item) => {
    const { pk: _pk, sk: _sk, gsi1pk: _gpk, gsi1sk: _gsk, entity: _entity, ...request } = item;
    return request as unknown as PaymentRequest & { statusPolls?: number };
  });
}

/**
 * The provider still says pending: ask again at `next`, or, with `next` undefined, stop asking
 * (the bound is reached). Nothing happens if the request completed meanwhile.
 */
export async function reschedulePoll(request: PaymentRequest, next: Date | undefined): Promise<void> {
  try {
    await documentClient.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: paymentRequestKey(request.id),
        UpdateExpression: next
          ? 'SET gsi1sk = :gsk, statusPolls = if_not_exists(statusPolls, :zero) + :one'
          : 'REMOVE gsi1pk, gsi1sk',
        ConditionExpression: '#status = :pending AND providerReference = :ref',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':pending': 'pending',
          ':ref': request.providerReference ?? null,
          ...(next ? { ':gsk': `${next.toISOString()}#${request.id}`, ':zero': 0, ':one': 1 } : {}),
        },
      }),
    );
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
}

/** Out of the polling index for good: the request is no longer pending, or its provider cannot be asked. */
export async function stopPolling(request: PaymentRequest): Promise<void> {
  await documentClient.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: paymentRequestKey(request.id),
      UpdateExpression: 'REMOVE gsi1pk, gsi1sk',
      ConditionExpression: 'attribute_exists(pk)',
    }),
  );
}
