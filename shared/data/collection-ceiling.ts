import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '#shared/aws/dynamodb.ts';
import type { GuardedWrite } from '#shared/data/transact.ts';
import { ceilingMonth } from '#shared/domain/ceilings.ts';
import type { Cents } from '#shared/domain/money.ts';
import { CollectionCeilingExceeded } from '#shared/errors/payment-requests.ts';

/**
 * What a business collected in a calendar month, against its collection ceiling. Added to in the
 * completion transaction with a condition, so two payments completing at once cannot both slip
 * under the ceiling.
 *
 * Key: pk = BIZ#<businessId>, sk = COLLECTED#<YYYY-MM>.
 * Cost: GetItem 0.5 RCU (the check at creation, at most once a minute per business in a warm
 * container far from its ceiling: `collectedLately`); 2 WCU in the completion transaction.
 */
const collectedKey = (businessId: string, month: string) => ({
  pk: `BIZ#${businessId}`,
  sk: `COLLECTED#${month}`,
});

export async function collectedThisMonth(businessId: string, at = new Date()): Promise<Cents> {
  const month = ceilingMonth(at);
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: tableName(), Key: collectedKey(businessId, month) }),
  );
  const collected = Number(Item?.collected ?? 0);
  remember(`${businessId}#${month}`, collected, at);
  return collected;
}

/**
 * The month's count as this container last read it, within the last minute, plus what it has
 * since let the business ask for (`expectCollection`), as if all of it were paid; read afresh
 * when there is none. For the advisory check at creation only: the completion counts atomically.
 */
export async function collectedLately(
  businessId: string,
  at = new Date(),
): Promise<{ collected: Cents; fresh: boolean }> {
  const known = remembered.get(`${businessId}#${ceilingMonth(at)}`);
  if (known && known.until > at.getTime()) return { collected: known.collected, fresh: false };
  return { collected: await collectedThisMonth(businessId, at), fresh: true };
}

/** A request for `amount` was made: counted as collected until the month is read again. */
export function expectCollection(businessId: string, amount: Cents, at = new Date()): void {
  const known = remembered.get(`${businessId}#${ceilingMonth(at)}`);
  if (known) known.collected += amount;
}

const rememberedMs = 60_000;
const rememberedLimit = 1_000;
const remembered = new Map<string, { collected: Cents; until: number }>();

function remember(key: string, collected: Cents, at: Date) {
  remembered.delete(key);
  // The oldest first: a map keeps insertion order.
  if (remembered.size >= rememberedLimit) remembered.delete(remembered.keys().next().value as string);
  remembered.set(key, { collected, until: at.getTime() + rememberedMs });
}

/**
 * Adds `amount` to the month, refusing to pass `ceiling` (null: no ceiling, counted all the same).
 * A single amount above the ceiling is refused before any write.
 */
export function collectWrite(
  businessId: string,
  amount: Cents,
  ceiling: Cents | null,
  at = new Date(),
): GuardedWrite {
  if (ceiling !== null && amount > ceiling) throw new CollectionCeilingExceeded();
  return {
    write: {
      Update: {
        TableName: tableName(),
        Key: collectedKey(businessId, ceilingMonth(at)),
        UpdateExpression: 'ADD collected :amount SET entity = :entity',
        ...(ceiling === null
          ? {}
          : { ConditionExpression: 'attribute_not_exists(collected) OR collected <= :room' }),
        ExpressionAttributeValues: {
          ':amount': amount,
          ':entity': 'collected_month',
          ...(ceiling === null ? {} : { ':room': ceiling - amount }),
        },
      },
    },
    onConditionFailed: () => new CollectionCeilingExceeded(),
  };
}
