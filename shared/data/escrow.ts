import { DeleteCommand, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '#shared/aws/dynamodb.ts';
import { queryAll } from '#shared/data/query.ts';
import type { GuardedWrite } from '#shared/data/transact.ts';
import type { EscrowStatus, ExpiryAction } from '#shared/domain/escrows.ts';
import type { Cents } from '#shared/domain/money.ts';
import type { ProviderCode } from '#shared/domain/payment-methods.ts';
import { EscrowMoved } from '#shared/errors/escrows.ts';

/**
 * Escrow: one payment held for a store until released or refunded (shared/domain/escrows.ts).
 *
 * Keys:
 * - pk = ESCROW#<id>, sk = ESCROW: the escrow; a business's read checks `businessId`, so another
 *   business's id is not found.
 * - gsi1pk = ESCROWS#<businessId>, gsi1sk = <createdAt>#<id>: a business's escrows, newest first.
 * - pk = ESCROWDUE#<shard>, sk = <holdUntil>#<id>: when a held escrow's hold ends, for the safety
 *   sweep that catches holds whose schedule was lost; written with `held`, removed by the sweep
 *   once the escrow has ended (so a transition out of `held` writes nothing more here). Spread
 *   over `dueShards` partitions by id.
 *
 * Access patterns and cost (the item stays well under 1 KB):
 * - create: one put in the payment request's creating transaction, 2 WCU (+1 for the index).
 * - held / cancelled: one update in the completion's transaction, 2 WCU (+1 for the index), and
 *   for held the due marker, 2 WCU. A payment without escrow writes nothing here. The escrow's
 *   `escrowId` on the payment's transaction record and its `{id, holdUntil}` on the request take
 *   both past 1 KB, so an escrowed completion is 26 WCU by the capacity bench (16 without).
 * - sweep: one Query per due shard over the markers already due, 0.5 RCU per 4 KB.
 * - release, refund: one conditional update in the transition's transaction, 2 WCU (+1).
 * - get by id: GetItem, 0.5 RCU (1 when consistent).
 * - list a business's: Query on gsi1, 0.5 RCU per 4 KB read; status and store are filters.
 */
export interface Escrow {
  id: string;
  businessId: string;
  storeId: string;
  status: EscrowStatus;
  holdUntil: string;
  /** The payment's amount. */
  amount: Cents;
  /** The fee taken when the payment was collected: 0 until then. */
  fees: Cents;
  currency: string;
  onExpiry: ExpiryAction;
  paymentRequestId: string;
  paymentLinkId: string | null;
  /** Who paid, through which provider: where a refund goes. Set when held. */
  payerPhone?: string | undefined;
  provider?: ProviderCode | undefined;
  /**
   * The service's address when the escrow was made: where a refund's payout callback goes when no
   * request carries one (the hold's expiry).
   */
  baseUrl: string;
  /** The payout that refunds it, once asked for. */
  refundTransferId?: string | undefined;
  createdAt: string;
  updatedAt: string;
}

export const escrowKey = (id: string) => ({ pk: `ESCROW#${id}`, sk: 'ESCROW' });
const listPartition = (businessId: string) => `ESCROWS#${businessId}`;

export function escrowCreateWrite(escrow: Escrow): GuardedWrite {
  return {
    write: {
      Put: {
        TableName: tableName(),
        Item: {
          ...escrowKey(escrow.id),
          gsi1pk: listPartition(escrow.businessId),
          gsi1sk: `${escrow.createdAt}#${escrow.id}`,
          entity: 'escrow',
          ...escrow,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
  };
}

/**
 * The write that moves an escrow from `from` to `to`, only if it is still in `from`, with the
 * attributes the new state adds. Its failed condition throws `EscrowMoved`.
 */
export function escrowTransitionWrite(
  id: string,
  from: EscrowStatus,
  to: EscrowStatus,
  set: Record<string, unknown> = {},
  now = new Date().toISOString(),
): GuardedWrite {
  const names: Record<string, string> = { '#status': 'status' };
  const values: Record<string, unknown> = { ':from': from, ':to': to, ':now': now };
  const clauses = ['#status = :to', 'updatedAt = :now'];
  for (const [i, [name, value]] of Object.entries(set).entries()) {
    names[`#a${i}`] = name;
    values[`:a${i}`] = value;
    clauses.push(`#a${i} = :a${i}`);
  }
  return {
    write: {
      Update: {
        TableName: tableName(),
        Key: escrowKey(id),
        UpdateExpression: `SET ${clauses.join(', ')}`,
        ConditionExpression: '#status = :from',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      },
    },
    onConditionFailed: () => new EscrowMoved(),
  };
}

export async function findEscrow(id: string, consistent = false): Promise<Escrow | undefined> {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: tableName(), Key: escrowKey(id), ConsistentRead: consistent }),
  );
  return Item ? toEscrow(Item) : undefined;
}

export async function getEscrow(businessId: string, id: string, consistent = false) {
  const escrow = await findEscrow(id, consistent);
  return escrow?.businessId === businessId ? escrow : undefined;
}

export async function listEscrows(
  businessId: string,
  filters: { status?: EscrowStatus | undefined; storeId?: string | undefined },
): Promise<Escrow[]> {
  const conditions: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':pk': listPartition(businessId) };
  if (filters.status) {
    conditions.push('#status = :status');
    names['#status'] = 'status';
    values[':status'] = filters.status;
  }
  if (filters.storeId) {
    conditions.push('storeId = :storeId');
    values[':storeId'] = filters.storeId;
  }
  const items = await queryAll({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ScanIndexForward: false,
    ExpressionAttributeValues: values,
    ...(conditions.length > 0 ? { FilterExpression: conditions.join(' AND ') } : {}),
    ...(filters.status ? { ExpressionAttributeNames: names } : {}),
  });
  return items.map(toEscrow);
}

const dueShards = 4;

const dueShardOf = (id: string) => {
  let hash = 0;
  for (const char of id) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return hash % dueShards;
};

const dueKey = (id: string, holdUntil: string) => ({
  pk: `ESCROWDUE#${dueShardOf(id)}`,
  sk: `${holdUntil}#${id}`,
});

/** The held escrow's due marker, in the transaction that makes it held. */
export function escrowDueWrite(id: string, holdUntil: string): GuardedWrite {
  return {
    write: {
      Put: {
        TableName: tableName(),
        Item: { ...dueKey(id, holdUntil), entity: 'escrow_due', escrowId: id, holdUntil },
      },
    },
  };
}

export interface DueEscrow {
  escrowId: string;
  holdUntil: string;
}

/** Markers of holds ended by `now`, oldest first in each shard, about `limit` in all. */
export async function dueEscrows(now: Date, limit: number): Promise<DueEscrow[]> {
  const perShard = Math.max(1, Math.ceil(limit / dueShards));
  const shards = await Promise.all(
    Array.from({ length: dueShards }, async (_, shard) => {
      const page = await documentClient.send(
        new QueryCommand({
          TableName: tableName(),
          KeyConditionExpression: 'pk = :pk AND sk < :now',
          ExpressionAttributeValues: { ':pk': `ESCROWDUE#${shard}`, ':now': now.toISOString() },
          Limit: perShard,
        }),
      );
      return (page.Items ?? []).map((item) => ({
        escrowId: item.escrowId as string,
        holdUntil: item.holdUntil as string,
      }));
    }),
  );
  return shards.flat();
}

export async function removeDueMarker(due: DueEscrow): Promise<void> {
  await documentClient.send(
    new DeleteCommand({ TableName: tableName(), Key: dueKey(due.escrowId, due.holdUntil) }),
  );
}

export function toEscrow(item: Record<string, unknown>): Escrow {
  const { pk: _pk, sk: _sk, gsi1pk: _gpk, gsi1sk: _gsk, entity: _entity, ...rest } = item;
  const escrow = rest as unknown as Escrow;
  return {
    ...escrow,
    amount: Number(escrow.amount),
    fees: Number(escrow.fees),
    paymentLinkId: escrow.paymentLinkId ?? null,
  };
}
