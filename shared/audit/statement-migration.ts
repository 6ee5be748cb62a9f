import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { readBooks, type StatementGap } from '#shared/audit/ledger-audit.ts';
import { documentClient, tableName } from '#shared/aws/dynamodb.ts';

/**
 * Fills the statement counters (shared/data/statement-counter.ts) of the days before the ledger
 * kept them, from the journal: run once after deploying the version that keeps them (`npm run
 * admin -- migrate-statements`); again, it finds nothing to do. Until then a stage's statements
 * start at the counters' first day and its audit reports the wallets with older history.
 *
 * It can run while the stage takes payments, as the audit does: a gap is filled only when two scans
 * in a row find it with the same figures (a write in flight is no gap), and each day's counter is
 * updated under the condition that it still holds what the scan read: a movement that landed since
 * leaves that day for the next run (`changed`). Every other day's update adds what is missing, so
 * the counters then say exactly what the entries say.
 */
export interface StatementMigration {
  /** Attributes found missing or wrong (in both scans). */
  gaps: number;
  /** Store days whose counter was filled. */
  filled: number;
  /** Store days a movement changed since the scan: run the migration again. */
  changed: number;
}

const keyOf = (gap: StatementGap) => `${gap.storeId}\u0000${gap.day}\u0000${gap.attribute}`;

export async function migrateStatementCounters(
  options: { storeIds?: ReadonlySet<string> } = {},
): Promise<StatementMigration> {
  const chosen = (gaps: StatementGap[]) =>
    options.storeIds ? gaps.filter((gap) => options.storeIds?.has(gap.storeId)) : gaps;
  const first = chosen((await readBooks()).statementGaps());
  if (first.length === 0) return { gaps: 0, filled: 0, changed: 0 };
  const again = new Map(chosen((await readBooks()).statementGaps()).map((gap) => [keyOf(gap), gap]));
  const gaps = first.filter((gap) => {
    const seen = again.get(keyOf(gap));
    return seen?.counted === gap.counted && seen.posted === gap.posted;
  });
  const byDay = new Map<string, StatementGap[]>();
  for (const gap of gaps) {
    const day = `${gap.storeId}\u0000${gap.day}`;
    byDay.set(day, [...(byDay.get(day) ?? []), gap]);
  }
  let filled = 0;
  let changed = 0;
  for (const dayGaps of byDay.values()) {
    const { storeId, day } = dayGaps[0] as StatementGap;
    const names: Record<string, string> = {};
    const values: Record<string, unknown> = { ':entity': 'transaction_counter' };
    const adds: string[] = [];
    const conditions: string[] = [];
    dayGaps.forEach((gap, i) => {
      names[`#a${i}`] = gap.attribute;
      values[`:add${i}`] = gap.posted - gap.counted;
      values[`:had${i}`] = gap.counted;
      adds.push(`#a${i} :add${i}`);
      // A counter never written has no attribute where a written one may hold 0.
      conditions.push(
        gap.counted === 0 ? `(attribute_not_exists(#a${i}) OR #a${i} = :had${i})` : `#a${i} = :had${i}`,
      );
    });
    try {
      await documentClient.send(
        new UpdateCommand({
          TableName: tableName(),
          Key: { pk: `TXCOUNT#${storeId}`, sk: day },
          UpdateExpression: `ADD ${adds.join(', ')} SET entity = :entity`,
          ConditionExpression: conditions.join(' AND '),
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
        }),
      );
      filled++;
    } catch (error) {
      if ((error as { name?: string }).name !== 'ConditionalCheckFailedException') throw error;
      changed++;
    }
  }
  return { gaps: gaps.length, filled, changed };
}
