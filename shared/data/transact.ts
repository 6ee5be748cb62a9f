import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '#shared/aws/dynamodb.ts';
import type { DomainError } from '#shared/errors/domain-error.ts';
import { count } from '#shared/metrics.ts';

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** One write of a transaction, with the domain error its failed condition means. */
export interface GuardedWrite {
  readonly write: TransactItem;
  readonly onConditionFailed?: () => DomainError;
}

/** Transactions on a hot item (a busy wallet) collide; they are retried this many times. */
const maxAttempts = 8;

/**
 * Writes all items in one TransactWriteItems (all or nothing). When a condition fails, the
 * cancellation reasons say which item's condition it was, and that item's domain error is thrown;
 * a failed condition with no error attached is rethrown as is. A transaction cancelled only
 * because another one was touching the same items is retried with jittered backoff.
 */
export async function transactWrite(given: readonly GuardedWrite[]): Promise<void> {
  const writes = mergedSameItemUpdates(given);
  for (let attempt = 1; ; attempt++) {
    try {
      await documentClient.send(new TransactWriteCommand({ TransactItems: writes.map((w) => w.write) }));
      return;
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
      const reasons = error.CancellationReasons ?? [];
      const failed = reasons.findIndex((reason) => reason.Code === 'ConditionalCheckFailed');
      if (failed >= 0) {
        const domainError = writes[failed]?.onConditionFailed?.();
        throw domainError ?? error;
      }
      const conflict = reasons.some((reason) => reason.Code === 'TransactionConflict');
      if (conflict) count('LedgerConflicts');
      if (!conflict || attempt >= maxAttempts) throw error;
      count('LedgerRetries');
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * 2 ** attempt));
    }
  }
}

type Update = NonNullable<TransactItem['Update']>;
const actions = ['SET', 'ADD', 'REMOVE', 'DELETE'] as const;

/** An update's clauses by action, or undefined when it is not plain enough to merge. */
function clausesOf(update: Update): Map<string, string[]> | undefined {
  if (update.ConditionExpression || update.UpdateExpression?.includes('(')) return undefined;
  const clauses = new Map<string, string[]>();
  const parts = (update.UpdateExpression ?? '')
    .split(/\b(SET|ADD|REMOVE|DELETE)\b/)
    .map((part) => part.trim());
  for (let i = 1; i < parts.length; i += 2) {
    const action = parts[i] as string;
    const list = (parts[i + 1] ?? '')
      .split(',')
      .map((clause) => clause.trim())
      .filter(Boolean);
    clauses.set(action, [...(clauses.get(action) ?? []), ...list]);
  }
  return clauses;
}

/** `b`'s placeholders added to `a`'s, or undefined when one of them stands for two things. */
function unionOf<T>(a: Record<string, T> | undefined, b: Record<string, T> | undefined) {
  const union: Record<string, T> = { ...a };
  for (const [name, value] of Object.entries(b ?? {})) {
    if (name in union && union[name] !== value) return undefined;
    union[name] = value;
  }
  return union;
}

function merged(a: Update, b: Update): Update | undefined {
  const [first, second] = [clausesOf(a), clausesOf(b)];
  const names = unionOf(a.ExpressionAttributeNames, b.ExpressionAttributeNames);
  const values = unionOf(a.ExpressionAttributeValues, b.ExpressionAttributeValues);
  if (!first || !second || !names || !values) return undefined;
  const expression = actions
    .map(
      (action) =>
        [action, [...new Set([...(first.get(action) ?? []), ...(second.get(action) ?? [])])]] as const,
    )
    .filter(([, list]) => list.length > 0)
    .map(([action, list]) => `${action} ${list.join(', ')}`)
    .join(' ');
  return {
    ...a,
    UpdateExpression: expression,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
}

/**
 * A transaction may not touch one item twice, yet two writers may each add to one counter in it
 * (the transaction list's day counter and the ledger's statement counters of the same store and
 * day): unconditional updates of one item, with plain clauses, are merged into one update, an
 * identical clause kept once. Anything else is left as given (and refused by DynamoDB as before).
 */
export function mergedSameItemUpdates(writes: readonly GuardedWrite[]): GuardedWrite[] {
  const result: GuardedWrite[] = [];
  const byItem = new Map<string, number>();
  for (const write of writes) {
    const update = write.write.Update;
    const item =
      update && !write.onConditionFailed
        ? `${update.TableName}\u0000${JSON.stringify(update.Key)}`
        : undefined;
    const at = item === undefined ? undefined : byItem.get(item);
    const earlier = at === undefined ? undefined : result[at]?.write.Update;
    const both = earlier && update ? merged(earlier, update) : undefined;
    if (at !== undefined && both) {
      result[at] = { write: { Update: both } };
      continue;
    }
    if (item !== undefined && at === undefined) byItem.set(item, result.length);
    result.push(write);
  }
  return result;
}
