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
export async function transactWrite(writes: readonly GuardedWrite[]): Promise<void> {
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
