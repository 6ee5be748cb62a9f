import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { PutCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '#shared/aws/dynamodb.ts';
import { type Payout, payoutCreationWrite } from '#shared/data/payout.ts';

/**
 * Payouts recorded before every payout carried what it settles (shared/data/payout.ts) have no
 * payout item, so neither a callback nor the sweep can find them: this writes one for each still
 * awaiting its provider (a pending transfer with a reservation, a pending refund, an orphan still
 * refunding). Safe to run twice: an existing payout item is left as it is. An operator's command
 * (`admin migrate-payouts`), run once after deploying the version that brought payout items.
 */
export async function migratePayouts(): Promise<{ found: number; written: number }> {
  const report = { found: 0, written: 0 };
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await documentClient.send(
      new ScanCommand({
        TableName: tableName(),
        FilterExpression:
          '(entity IN (:transfer, :refund) AND #status = :pending) OR (entity = :orphan AND #status = :refunding)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':transfer': 'transfer',
          ':refund': 'refund',
          ':orphan': 'orphan_collection',
          ':pending': 'pending',
          ':refunding': 'refunding',
        },
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of page.Items ?? []) {
      const payout = payoutOf(item);
      if (!payout) continue;
      report.found++;
      if (await writeIfMissing(payout)) report.written++;
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return report;
}

function payoutOf(item: Record<string, unknown>): Omit<Payout, 'settledAt'> | undefined {
  const settles =
    item.entity === 'transfer' ? 'transfer' : item.entity === 'refund' ? 'refund' : 'orphanRefund';
  // A transfer between stores ends as it is made: only payouts hold a reservation while pending.
  if (settles === 'transfer' && !item.reservation) return undefined;
  return {
    id: item.id as string,
    settles,
    businessId: item.businessId as string,
    method: (item.paymentMethod ?? item.provider) as Payout['method'],
    createdAt: item.createdAt as string,
  };
}

async function writeIfMissing(payout: Omit<Payout, 'settledAt'>): Promise<boolean> {
  const put = payoutCreationWrite(payout).write.Put;
  if (!put) return false;
  try {
    await documentClient.send(new PutCommand(put as ConstructorParameters<typeof PutCommand>[0]));
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}
