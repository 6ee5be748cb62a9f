import { tableName } from '#shared/aws/dynamodb.ts';
import type { GuardedWrite } from '#shared/data/transact.ts';

/**
 * Outbox: events written in the same transaction as the state change they announce, then
 * delivered to webhook subscribers from there. An event's id is derived from what it announces,
 * so the same change can never produce two events.
 *
 * Keys:
 * - pk = OUTBOX#<eventId>, sk = EVENT.
 * - gsi1pk = OUTBOX#PENDING, gsi1sk = <createdAt>#<eventId> while not yet handed to the queue:
 *   a sparse index the sweeper reads oldest first; the attributes are removed once queued.
 *
 * Cost: 1 put in the transaction (2 WCU) plus 1 for the index.
 */
export interface OutboxEvent {
  id: string;
  /** `TRANSACTION_COMPLETED`, `ESCROW_HELD`, ...: sent as the Svc-Event header. */
  name: string;
  businessId: string;
  /** The exact webhook body. */
  body: Record<string, unknown>;
  createdAt: string;
}

export const outboxKey = (eventId: string) => ({ pk: `OUTBOX#${eventId}`, sk: 'EVENT' });

export function outboxWrite(event: OutboxEvent): GuardedWrite {
  return {
    write: {
      Put: {
        TableName: tableName(),
        Item: {
          ...outboxKey(event.id),
          gsi1pk: 'OUTBOX#PENDING',
          gsi1sk: `${event.createdAt}#${event.id}`,
          entity: 'outbox_event',
          status: 'pending',
          ...event,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
  };
}
