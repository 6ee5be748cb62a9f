import { createHash } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '#shared/aws/dynamodb.ts';
import { queryShardsBefore } from '#shared/data/query.ts';
import type { GuardedWrite } from '#shared/data/transact.ts';

/**
 * Outbox: events written in the same transaction as the state change they announce, then
 * delivered to webhook subscribers from there. An event's id is derived from what it announces,
 * so the same change can never produce two events.
 *
 * Keys:
 * - pk = OUTBOX#<eventId>, sk = EVENT.
 * - gsi1pk = OUTBOX#PENDING#<shard>, gsi1sk = <createdAt>#<eventId> while not yet handed to the
 *   queue: a sparse index the sweeper reads oldest first; the attributes are removed once queued.
 *   Every completion writes there, so it is spread over a few shards (by event id) rather than
 *   one partition key taking every write of the service.
 *
 * Cost: 1 put in the transaction (2 WCU) plus 1 for the index; handing it to the queue, 2 more.
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

const pendingShards = 8;

export function pendingPartitionOf(eventId: string): string {
  const shard = createHash('sha256').update(eventId).digest()[0] as number;
  return `OUTBOX#PENDING#${shard % pendingShards}`;
}

export function outboxWrite(event: OutboxEvent): GuardedWrite {
  return {
    write: {
      Put: {
        TableName: tableName(),
        Item: {
          ...outboxKey(event.id),
          gsi1pk: pendingPartitionOf(event.id),
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

function toOutboxEvent(item: Record<string, unknown>): OutboxEvent {
  return {
    id: item.id as string,
    name: item.name as string,
    businessId: item.businessId as string,
    body: item.body as Record<string, unknown>,
    createdAt: item.createdAt as string,
  };
}

/**
 * Events still waiting for the queue that were written before `before`, oldest first, at most
 * `limit` (each shard is read from its oldest; a shard behind the others is caught up by the next
 * sweeps). Cost: 8 queries, 0.5 RCU per 4 KB read from the index (events are ~1 KB).
 */
export async function pendingOutboxEvents(before: Date, limit: number): Promise<OutboxEvent[]> {
  const items = await queryShardsBefore('OUTBOX#PENDING#', pendingShards, before, limit);
  return items
    .map(toOutboxEvent)
    .sort((a, b) => (a.createdAt < b.createdAt ? -1 : 1))
    .slice(0, limit);
}

/**
 * Takes the event out of the sweeper's index: its webhooks are on the queue, or nobody is
 * subscribed to it. Cost: 1 WCU, plus 1 for removing the index entry.
 */
export async function markOutboxEventDone(
  eventId: string,
  status: 'queued' | 'no_subscriber',
): Promise<void> {
  await documentClient.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: outboxKey(eventId),
      UpdateExpression: 'REMOVE gsi1pk, gsi1sk SET #status = :status, doneAt = :now',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':status': status, ':now': new Date().toISOString() },
    }),
  );
}
