import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '#shared/aws/dynamodb.ts';
import type { GuardedWrite } from '#shared/data/transact.ts';
import { derivedUuid } from '#shared/domain/ids.ts';
import type { ProviderCode } from '#shared/domain/payment-methods.ts';
import type { DomainError } from '#shared/errors/domain-error.ts';

/**
 * Orphan collection: money a provider reports as collected that completed no payment request (the
 * payer started a payment with one provider, went back, paid with another, and approved both; the
 * request completes with the collection it was waiting for, the other is an orphan; or the request
 * ended unpaid, expired or cancelled, before its collection's success was reported). The service
 * never keeps it: it is recorded with its ledger entry (the provider owes it, the service owes it
 * to the payer) and paid back to the payer through the provider's payout, as a transfer is.
 *
 * Its id is derived from the provider and the collection's reference, so however many times and in
 * whatever order the provider reports the collection, it is recorded, and refunded, once.
 *
 * States: `refunding` (recorded, payout asked or about to be), then `refunded` or `refund_failed`
 * (the provider refused the payout: the money stays owed to the payer, for an operator), once.
 *
 * Keys:
 * - pk = ORPHAN#<id>, sk = ORPHAN: the orphan, by id. Its refund is a payout of the same id
 *   (shared/data/payout.ts, `settles: orphanRefund`), which callbacks and the sweep find it by.
 * - gsi1pk = ORPHAN#OPEN while `refunding`, ORPHAN#DONE after; gsi1sk = <createdAt>#<id>: the
 *   operator's view. Orphans are rare (a payer paying twice): one partition each is plenty.
 *
 * Cost (item under 1 KB): record, a put inside the recording transaction (2 WCU + 1 index) with its
 * payout (2 WCU + 1 index); record the payout's reference, UpdateItem (1 WCU); settle, an update
 * inside the settling transaction (2 WCU + 2 index) with its payout's (2 WCU + 1 index); list, a
 * Query per partition (0.5 RCU per 4 KB).
 */
export type OrphanStatus = 'refunding' | 'refunded' | 'refund_failed';

export interface OrphanCollection {
  id: string;
  /** The business and request the payer meant to pay: the event goes to that business. */
  businessId: string;
  storeId: string;
  paymentRequestId: string;
  reference: string;
  provider: ProviderCode;
  /** The provider's id of the collection that completed nothing. */
  providerReference: string;
  amountCents: number;
  currency: string;
  /** Where the refund goes: the payer's number as the provider reported it, else as the payer typed it. */
  payerPhone?: string | undefined;
  status: OrphanStatus;
  errorReason: string | null;
  /** Where the provider reports the refund's payout: the service's base URL the request was made on. */
  payoutCallbackUrl: string;
  /** The provider's id of the refund's payout, once asked. */
  payoutReference?: string | undefined;
  createdAt: string;
  updatedAt: string;
}

/** A UUID-shaped id from the collection's identity: payout ports carry a transfer id of that shape. */
export const orphanIdOf = (provider: ProviderCode, providerReference: string): string =>
  derivedUuid(`orphan:${provider}:${providerReference}`);

export const orphanKey = (id: string) => ({ pk: `ORPHAN#${id}`, sk: 'ORPHAN' });
const openPartition = 'ORPHAN#OPEN';
const donePartition = 'ORPHAN#DONE';

/** The put that records an orphan, once: a second report of the same collection fails it. */
export function orphanCreationWrite(orphan: OrphanCollection, onRecorded: () => DomainError): GuardedWrite {
  return {
    write: {
      Put: {
        TableName: tableName(),
        Item: {
          ...orphanKey(orphan.id),
          entity: 'orphan_collection',
          gsi1pk: openPartition,
          gsi1sk: `${orphan.createdAt}#${orphan.id}`,
          ...orphan,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    onConditionFailed: onRecorded,
  };
}

/** The write that ends a refund, once, for the transaction that posts (or not) its payout. */
export function orphanOutcomeWrite(
  orphan: OrphanCollection,
  outcome: { status: 'refunded' | 'refund_failed'; errorReason: string | null; updatedAt: string },
  onNotRefunding: () => DomainError,
): GuardedWrite {
  return {
    write: {
      Update: {
        TableName: tableName(),
        Key: orphanKey(orphan.id),
        UpdateExpression: 'SET #status = :status, errorReason = :reason, updatedAt = :now, gsi1pk = :done',
        ConditionExpression: '#status = :refunding',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':status': outcome.status,
          ':reason': outcome.errorReason,
          ':now': outcome.updatedAt,
          ':done': donePartition,
          ':refunding': 'refunding',
        },
      },
    },
    onConditionFailed: onNotRefunding,
  };
}

export async function recordRefundPayoutStarted(id: string, payoutReference: string): Promise<void> {
  await documentClient.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: orphanKey(id),
      UpdateExpression: 'SET payoutReference = :ref',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':ref': payoutReference },
    }),
  );
}

export async function getOrphanCollection(id: string): Promise<OrphanCollection | undefined> {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: tableName(), Key: orphanKey(id), ConsistentRead: true }),
  );
  return Item ? toOrphan(Item) : undefined;
}

/** Orphans still refunding (`open`) or ended, oldest first; `before` bounds their recording time. */
export async function listOrphanCollections(
  which: 'open' | 'done',
  options: { before?: Date; limit?: number } = {},
): Promise<OrphanCollection[]> {
  const found: OrphanCollection[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await documentClient.send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: 'gsi1',
        KeyConditionExpression: options.before ? 'gsi1pk = :pk AND gsi1sk < :before' : 'gsi1pk = :pk',
        ExpressionAttributeValues: {
          ':pk': which === 'open' ? openPartition : donePartition,
          ...(options.before ? { ':before': options.before.toISOString() } : {}),
        },
        ExclusiveStartKey: startKey,
      }),
    );
    found.push(...(page.Items ?? []).map(toOrphan));
    startKey = page.LastEvaluatedKey;
  } while (startKey && found.length < (options.limit ?? Number.POSITIVE_INFINITY));
  return options.limit === undefined ? found : found.slice(0, options.limit);
}

export function toOrphan(item: Record<string, unknown>): OrphanCollection {
  const { pk: _pk, sk: _sk, gsi1pk: _gpk, gsi1sk: _gsk, entity: _entity, ...rest } = item;
  const orphan = rest as unknown as OrphanCollection;
  return { ...orphan, errorReason: orphan.errorReason ?? null };
}
