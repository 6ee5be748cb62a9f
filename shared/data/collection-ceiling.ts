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
 * Cost: GetItem 0.5 RCU (the check at creation); 2 WCU in the completion transaction.
 */
const collectedKey = (businessId: string, month: string) => ({
  pk: `BIZ#${businessId}`,
  sk: `COLLECTED#${month}`,
});

export async function collectedThisMonth(businessId: string, at = new Date()): Promise<Cents> {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: tableName(), Key: collectedKey(businessId, ceilingMonth(at)) }),
  );
  return Number(Item?.collected ?? 0);
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
