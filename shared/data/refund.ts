import { BatchGetCommand, GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '#shared/aws/dynamodb.ts';
import { paymentRequestKey } from '#shared/data/payment-request.ts';
import { payoutCreationWrite } from '#shared/data/payout.ts';
import { queryAll, queryPrefix } from '#shared/data/query.ts';
import type { GuardedWrite } from '#shared/data/transact.ts';
import { reservationOutcomeWrite } from '#shared/data/wallet.ts';
import type { RefundRoute } from '#shared/domain/ledger.ts';
import type { Cents } from '#shared/domain/money.ts';
import type { ProviderCode } from '#shared/domain/payment-methods.ts';
import type { Reservation } from '#shared/domain/wallet.ts';
import type { DomainError } from '#shared/errors/domain-error.ts';
import { RefundExistsWithReference } from '#shared/errors/refunds.ts';

/**
 * Refund: a completed payment paid back, whole or in part, to its payer, out of the store's
 * operating wallet. `pending` with amount + fee reserved on the wallet until the provider answers,
 * then `success` (the ledger entry takes the reservation out) or `error` (it goes back), once.
 *
 * Keys:
 * - pk = REFUND#<id>, sk = REFUND: the refund. Payout callbacks name it by id alone; a business's
 *   read checks `businessId`, so another business's refund is not found. It carries its wallet
 *   reservation, which the ledger audit sums per wallet with the transfers'.
 *   gsi1pk = REFUNDS#<storeId>, gsi1sk = <createdAt>#<id>: a store's refunds, newest first.
 * - pk = BIZ#<businessId>, sk = REFUNDREF#<reference>: the claim of the merchant's reference,
 *   unique per business.
 * - pk = BIZ#<businessId>, sk = REFUNDCOUNT#<storeId>: how many refunds the store has, added to in
 *   the creating transaction, so a list's `total` is read, never counted.
 * - its payout (shared/data/payout.ts, `settles: refund`), for the sweep that asks the provider
 *   about refunds whose answer never came; it leaves the sweep's index in the settling transaction.
 * - pk = PAYREQ#<paymentRequestId>, sk = REFUND#<createdAt>#<id>: the payment's refunds, in the
 *   payment's own partition, so its refunds are listed without growing the payment request.
 * - pk = PAYREQ#<paymentRequestId>, sk = REFUNDABLE: what remains refundable of the payment
 *   (`refundable`; no item until the first refund: the amount paid), taken under the condition
 *   `refundable >= amount` and given back by a failed refund. A DynamoDB condition cannot add two
 *   attributes, so the remainder is kept rather than computed from what was refunded. Beside the
 *   payment request, not on it: the request is polled and written as it was, under 1 KB.
 * - on the payment request, `refundedCents`: what successful refunds paid back, its `amountRefunded`
 *   (one number, added by a successful refund's settlement alone).
 *
 * Access patterns and cost (a refund is under 1 KB but for a long `reason`, whose bytes it carries;
 * the capacity bench measures both):
 * - create: one transaction of the claim (2 WCU), the refund (2 + 1 index), the store's count (2),
 *   the payout (2 + 1 index), the payment's pointer (2), the refundable amount (2) and the wallet's
 *   reservation (2), with the transaction-list line (4): 20 WCU.
 * - record the provider's reference: UpdateItem, 1 WCU (+1 index).
 * - settle: the refund (2), the payout (2 + 1 leaving the index), the payment request's
 *   `refundedCents` or the refundable amount given back (2), the wallet (2), the journal entry (2),
 *   the line's status (2 + 1): 14 WCU.
 * - what remains refundable: GetItem, 0.5 RCU (1 consistent).
 * - get by id: GetItem, 0.5 RCU.
 * - list one store's: the count (GetItem, 0.5 RCU) and a Query on gsi1 reading the pages up to the
 *   one asked, newest first (0.5 RCU per 4 KB): the cost follows the page's depth, not the history.
 *   A business's: the counts (one Query) and that Query per store that has refunds.
 * - list one payment's: a Query of its pointers (0.5 RCU) and a BatchGet of the page's refunds.
 */
export type RefundStatus = 'pending' | 'success' | 'error';

export interface Refund {
  id: string;
  businessId: string;
  storeId: string;
  paymentRequestId: string;
  /** The refunded payment's `reference`, for the webhook and the list line. */
  paymentReference: string;
  amountCents: Cents;
  feeCents: Cents;
  currency: string;
  status: RefundStatus;
  errorReason: string | null;
  /** The merchant's, unique per business. */
  reference: string;
  reason?: string | undefined;
  /** The provider that collected the payment, and through which it is paid back. */
  paymentMethod: ProviderCode;
  /** The payer's number, where the money goes. */
  counterpartIdentifier: string;
  counterpartLabel: string;
  /** The provider's own refund of the collection, or a payout to the number. */
  route: RefundRoute;
  /** The refunded collection, as its provider named it. */
  collectionReference: string;
  /** Where the provider reports the outcome: the service's base URL the refund was asked on. */
  callbackUrl: string;
  providerReference?: string | undefined;
  reservation: Reservation;
  /** The transaction-list line that reports it. */
  transactionId: string;
  createdAt: string;
  updatedAt: string;
}

export const refundKey = (id: string) => ({ pk: `REFUND#${id}`, sk: 'REFUND' });
const referenceKey = (businessId: string, reference: string) => ({
  pk: `BIZ#${businessId}`,
  sk: `REFUNDREF#${reference}`,
});
const countKey = (businessId: string, storeId: string) => ({
  pk: `BIZ#${businessId}`,
  sk: `REFUNDCOUNT#${storeId}`,
});
const storePartition = (storeId: string) => `REFUNDS#${storeId}`;
const refundableKey = (paymentRequestId: string) => ({
  pk: paymentRequestKey(paymentRequestId).pk,
  sk: 'REFUNDABLE',
});
const ofPaymentKey = (refund: Pick<Refund, 'id' | 'paymentRequestId' | 'createdAt'>) => ({
  pk: paymentRequestKey(refund.paymentRequestId).pk,
  sk: `REFUND#${refund.createdAt}#${refund.id}`,
});

/**
 * The writes that record a new refund, for the transaction that also claims the payment's
 * refundable amount and reserves the money: the reference's claim first, so a reused reference is
 * answered as such whatever else the transaction meets.
 */
export function refundCreationWrites(refund: Refund): GuardedWrite[] {
  const table = tableName();
  return [
    {
      write: {
        Put: {
          TableName: table,
          Item: {
            ...referenceKey(refund.businessId, refund.reference),
            entity: 'refund_reference',
            refundId: refund.id,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      onConditionFailed: () => new RefundExistsWithReference(refund.reference),
    },
    {
      write: {
        Put: {
          TableName: table,
          Item: {
            ...refundKey(refund.id),
            gsi1pk: storePartition(refund.storeId),
            gsi1sk: `${refund.createdAt}#${refund.id}`,
            entity: 'refund',
            ...refund,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    },
    {
      write: {
        Update: {
          TableName: table,
          Key: countKey(refund.businessId, refund.storeId),
          UpdateExpression: 'ADD #count :one SET entity = :entity, storeId = :store',
          ExpressionAttributeNames: { '#count': 'count' },
          ExpressionAttributeValues: { ':one': 1, ':entity': 'refund_count', ':store': refund.storeId },
        },
      },
    },
    payoutCreationWrite({
      id: refund.id,
      settles: 'refund',
      businessId: refund.businessId,
      method: refund.paymentMethod,
      createdAt: refund.createdAt,
    }),
    {
      write: {
        Put: {
          TableName: table,
          Item: { ...ofPaymentKey(refund), entity: 'payment_refund', refundId: refund.id },
        },
      },
    },
  ];
}

/**
 * Takes `amount` from what remains refundable of a paid request, only while that much remains: two
 * refunds at once can never take the same money. The remainder starts at the amount paid, which
 * the caller has checked covers `amount`.
 */
export function refundableClaimWrite(
  request: { id: string; amountCents: Cents },
  amount: Cents,
  onShort: () => DomainError,
): GuardedWrite {
  return {
    write: {
      Update: {
        TableName: tableName(),
        Key: refundableKey(request.id),
        UpdateExpression:
          'SET refundable = if_not_exists(refundable, :paid) - :amount, amountCents = :paid, paymentRequestId = :id, entity = :entity',
        ConditionExpression: 'attribute_not_exists(refundable) OR refundable >= :amount',
        ExpressionAttributeValues: {
          ':paid': request.amountCents,
          ':amount': amount,
          ':id': request.id,
          ':entity': 'refundable',
        },
      },
    },
    onConditionFailed: onShort,
  };
}

/** What remains refundable of a paid request: all of it until a first refund. */
export async function refundableOf(request: { id: string; amountCents: Cents }): Promise<Cents> {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: tableName(), Key: refundableKey(request.id), ConsistentRead: true }),
  );
  return Item ? Number(Item.refundable) : request.amountCents;
}

/**
 * What a settled refund changes of its payment: a paid one adds to the request's `refundedCents`
 * (its `amountRefunded`), a failed one gives its amount back to what remains refundable.
 */
export function refundOutcomeOnPaymentWrite(refund: Refund, status: 'success' | 'error'): GuardedWrite {
  return {
    write: {
      Update: {
        TableName: tableName(),
        Key:
          status === 'success'
            ? paymentRequestKey(refund.paymentRequestId)
            : refundableKey(refund.paymentRequestId),
        UpdateExpression: status === 'success' ? 'ADD refundedCents :amount' : 'ADD refundable :amount',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':amount': refund.amountCents },
      },
    },
  };
}

/**
 * The write that ends a pending refund, once: its status, and its reservation's state (posted
 * with the ledger entry, or released back to the wallet).
 */
export function refundOutcomeWrite(
  refund: Refund,
  outcome: { status: 'success' | 'error'; errorReason: string | null; updatedAt: string },
  onNotPending: () => DomainError,
): GuardedWrite {
  return reservationOutcomeWrite(refundKey(refund.id), outcome, onNotPending);
}

/** Frees a reference again, for a refund the provider refused at once. */
export function refundReferenceReleaseWrite(refund: Refund): GuardedWrite {
  return {
    write: {
      Delete: {
        TableName: tableName(),
        Key: referenceKey(refund.businessId, refund.reference),
        ConditionExpression: 'refundId = :id',
        ExpressionAttributeValues: { ':id': refund.id },
      },
    },
  };
}

export async function recordRefundStarted(refund: Refund, providerReference: string): Promise<void> {
  await documentClient.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: refundKey(refund.id),
      UpdateExpression: 'SET providerReference = :ref',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':ref': providerReference },
    }),
  );
}

/** For provider callbacks and the sweeper, which hold only the id. */
export async function findRefund(id: string, consistent = false): Promise<Refund | undefined> {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: tableName(), Key: refundKey(id), ConsistentRead: consistent }),
  );
  return Item ? toRefund(Item) : undefined;
}

export async function getRefund(businessId: string, id: string, consistent = false) {
  const refund = await findRefund(id, consistent);
  return refund?.businessId === businessId ? refund : undefined;
}

export interface RefundPage {
  total: number;
  items: Refund[];
}

const newestFirst = (a: Refund, b: Refund) =>
  a.createdAt === b.createdAt ? (a.id < b.id ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1;

/** The newest `count` refunds of a store, newest first: the pages up to the one asked. */
async function newestOfStore(storeId: string, count: number): Promise<Refund[]> {
  const items: Refund[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await documentClient.send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': storePartition(storeId) },
        ScanIndexForward: false,
        Limit: count - items.length,
        ExclusiveStartKey: startKey,
      }),
    );
    items.push(...(page.Items ?? []).map(toRefund));
    startKey = page.LastEvaluatedKey;
  } while (startKey && items.length < count);
  return items;
}

/**
 * A page of a business's refunds, of one store or of all, newest first. `total` comes from the
 * stores' counts; a page reads each store's refunds down to its own depth and no further.
 */
export async function listRefunds(
  businessId: string,
  query: { storeId?: string | undefined; page: number; limit: number },
): Promise<RefundPage> {
  const counts = (await queryPrefix(`BIZ#${businessId}`, 'REFUNDCOUNT#'))
    .map((item) => ({ storeId: item.storeId as string, count: Number(item.count) }))
    .filter((count) => count.count > 0 && (query.storeId === undefined || count.storeId === query.storeId));
  const total = counts.reduce((sum, count) => sum + count.count, 0);
  const depth = query.page * query.limit;
  if ((query.page - 1) * query.limit >= total) return { total, items: [] };
  const stores = await Promise.all(
    counts.map((count) => newestOfStore(count.storeId, Math.min(depth, count.count))),
  );
  const items = stores
    .flat()
    .filter((refund) => refund.businessId === businessId)
    .sort(newestFirst)
    .slice((query.page - 1) * query.limit, depth);
  return { total, items };
}

/** A page of one payment's refunds, newest first: its pointers, then the page's refunds in one batch. */
export async function listRefundsOfPayment(
  paymentRequestId: string,
  query: { page: number; limit: number },
): Promise<RefundPage> {
  const ids = await refundIdsOfPayment(paymentRequestId);
  const page = ids.slice((query.page - 1) * query.limit, query.page * query.limit);
  const found: Refund[] = [];
  let keys = page.map(refundKey);
  while (keys.length > 0) {
    const answer = await documentClient.send(
      new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: keys } } }),
    );
    found.push(...(answer.Responses?.[tableName()] ?? []).map(toRefund));
    keys = (answer.UnprocessedKeys?.[tableName()]?.Keys ?? []) as typeof keys;
  }
  return { total: ids.length, items: found.sort(newestFirst) };
}

/** The ids of a payment's refunds, newest first. */
export async function refundIdsOfPayment(paymentRequestId: string): Promise<string[]> {
  const pointers = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :refund)',
    ExpressionAttributeValues: { ':pk': paymentRequestKey(paymentRequestId).pk, ':refund': 'REFUND#' },
    ScanIndexForward: false,
    ConsistentRead: true,
  });
  return pointers.map((pointer) => pointer.refundId as string);
}

export function toRefund(item: Record<string, unknown>): Refund {
  const { pk: _pk, sk: _sk, gsi1pk: _gpk, gsi1sk: _gsk, entity: _entity, ...rest } = item;
  const refund = rest as unknown as Refund;
  return { ...refund, errorReason: refund.errorReason ?? null };
}
