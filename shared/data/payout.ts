import { createHash } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '#shared/aws/dynamodb.ts';
import { queryShardsBefore } from '#shared/data/query.ts';
import type { GuardedWrite } from '#shared/data/transact.ts';
import type { PayoutMethod } from '#shared/domain/payment-methods.ts';

/**
 * Payout: money the service asked a provider to pay out, named by the id the provider keeps (our
 * own record's id, given before the call). Whatever it pays (a merchant's transfer, a refund of a
 * paid payment, the refund of an orphan collection; next, a withdrawal or a line of a bulk file),
 * it carries from its creation a typed reference to what it settles, so a callback, a status query
 * or a sweep settles it through one entry point (shared/settlement/payouts.ts) that dispatches
 * once, on `settles`, never by trying one kind after another.
 *
 * Keys:
 * - pk = PAYOUT#<id>, sk = PAYOUT: the reference, written in the transaction that records what it
 *   pays (and reserves its money), kept after it settles so a late callback still finds it.
 * - While unsettled: gsi1pk = PAYOUT#PENDING#<shard>, gsi1sk = <createdAt>#<id>, a sparse index the
 *   sweep reads to ask the provider about payouts whose answer never came; the settling transaction
 *   takes it out.
 *
 * Cost (item ~0.2 KB): create, a put in the recording transaction (2 WCU + 1 index); settle, an
 * update in the settling transaction (2 WCU + 1 index); find by id, GetItem (0.5 RCU); the sweep,
 * one Query per shard (0.5 RCU per 4 KB).
 */
export type PayoutKind = 'transfer' | 'refund' | 'orphanRefund';

export interface Payout {
  id: string;
  /** What it settles: a transfer, a refund or an orphan collection of this id. */
  settles: PayoutKind;
  businessId: string;
  /** The provider that pays it (`bank`: the bank transfers' provider). */
  method: PayoutMethod;
  createdAt: string;
  /** When it settled, one way or the other; absent while its provider's answer is awaited. */
  settledAt?: string | undefined;
}

export const payoutKey = (id: string) => ({ pk: `PAYOUT#${id}`, sk: 'PAYOUT' });

const pendingShards = 8;
const pendingPrefix = 'PAYOUT#PENDING#';
const pendingPartitionOf = (id: string) =>
  `${pendingPrefix}${(createHash('sha256').update(id).digest()[0] as number) % pendingShards}`;

/** The put that records a payout with what it settles, for the transaction that records that. */
export function payoutCreationWrite(payout: Omit<Payout, 'settledAt'>): GuardedWrite {
  return {
    write: {
      Put: {
        TableName: tableName(),
        Item: {
          ...payoutKey(payout.id),
          gsi1pk: pendingPartitionOf(payout.id),
          gsi1sk: `${payout.createdAt}#${payout.id}`,
          entity: 'payout',
          ...payout,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
  };
}

/**
 * The payout leaves the sweep's index, for the transaction that settles what it pays. Unguarded:
 * that transaction's own condition (what it pays is still pending) makes it happen once.
 */
export function payoutSettledWrite(id: string, at: string): GuardedWrite {
  return {
    write: {
      Update: {
        TableName: tableName(),
        Key: payoutKey(id),
        UpdateExpression: 'SET settledAt = :at REMOVE gsi1pk, gsi1sk',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':at': at },
      },
    },
  };
}

export async function findPayout(id: string): Promise<Payout | undefined> {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: tableName(), Key: payoutKey(id), ConsistentRead: true }),
  );
  return Item ? toPayout(Item) : undefined;
}

/** Payouts unsettled since before `before`, oldest of each shard first, about `limit` in all. */
export async function unsettledPayouts(before: Date, limit: number): Promise<Payout[]> {
  return (await queryShardsBefore(pendingPrefix, pendingShards, before, limit)).map(toPayout);
}

function toPayout(item: Record<string, unknown>): Payout {
  return {
    id: item.id as string,
    settles: item.settles as PayoutKind,
    businessId: item.businessId as string,
    method: item.method as PayoutMethod,
    createdAt: item.createdAt as string,
    ...(item.settledAt ? { settledAt: item.settledAt as string } : {}),
  };
}
