import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '#shared/aws/dynamodb.ts';
import type { DomainError } from '#shared/domain/errors.ts';

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** One write of a transaction, with the domain error its failed condition means. */
export interface GuardedWrite {
  readonly write: TransactItem;
  readonly onConditionFailed?: () => DomainError;
}

/**
 * Writes all items in one TransactWriteItems (all or nothing). When a condition fails, the
 * cancellation reasons say which item's condition it was, and that item's domain error is thrown;
 * a failed condition with no error attached is a bug and rethrown as is.
 */
export async function transactWrite(writes: readonly GuardedWrite[]): Promise<void> {
  try {
    await documentClient.send(new TransactWriteCommand({ TransactItems: writes.map((w) => w.write) }));
  } catch (error) {
    if (error instanceof TransactionCanceledException) {
      const reasons = error.CancellationReasons ?? [];
      const failed = reasons.findIndex((reason) => reason.Code === 'ConditionalCheckFailed');
      const domainError = failed >= 0 ? writes[failed]?.onConditionFailed?.() : undefined;
      if (domainError) throw domainError;
    }
    throw error;
  }
}
