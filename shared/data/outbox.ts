import { createHash } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '#shared/aws/dynamodb.ts';
import type { GuardedWrite } from '#shared/data/transact.ts';

/**
 * Outbox: events written in the same transaction as the state change they announce, then
 * delivered to webhook subscribers from there. An event's id is derived from what it announces,
 * so the same change can never produce two events.
 *
 * The event is written once and never updated: the function that made the change dispatches it
 * at once, and the sweeper walks the events in the order they were written, behind a cursor, and
 * dispatches those whose delivery is missing (shared/operations/webhook-dispatch.ts). Nothing
 * marks an event done, since a delivery's existence, read for 0.5 RCU, says it, and a write unit
 * costs five times a read unit.
 *
 * Keys:
 * - pk = OUTBOX#<eventId>, sk = EVENT.
 * - gsi1pk = OUTBOX#PENDING#<shard>, gsi1sk = <createdAt>#<eventId>: every event, oldest first,
 *   for the sweeper. Every completion writes there, so it is spread over a few shards (by event
 *   id) rather than one partition key taking every write of the service. (The name is from when
 *   entries left the index once queued.)
 * - pk = OUTBOX#CURSOR, sk = SWEPT#<sweep>: how far each of the sweeper's passes has gone
 *   (`through`, a gsi1sk).
 * - ttl: an event is kept `retentionDays`; TTL deletions cost no write units. The delivery keeps
 *   the body it sends, so a re-send does not need the event.
 *
 * Cost: 1 put in the transaction (2 WCU) plus 1 for the index; nothing after.
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
const cursorKey = (sweep: string) => ({ pk: 'OUTBOX#CURSOR', sk: `SWEPT#${sweep}` });

const sweepShards = 8;
const retentionDays = 7;

/** The sweeper's index partition of an event. */
export function pendingPartitionOf(eventId: string): string {
  const shard = createHash('sha256').update(eventId).digest()[0] as number;
  return `OUTBOX#PENDING#${shard % sweepShards}`;
}

/** Where an event sits in the sweeper's order. */
export const sweepPosition = (event: Pick<OutboxEvent, 'id' | 'createdAt'>) =>
  `${event.createdAt}#${event.id}`;

/**
 * The write that records `event` with the state change it announces: add it to that change's
 * transaction. Fails the transaction if the event was already written.
 */
export function outboxWrite(event: OutboxEvent): GuardedWrite {
  return {
    write: {
      Put: {
        TableName: tableName(),
        Item: {
          ...outboxKey(event.id),
          gsi1pk: pendingPartitionOf(event.id),
          gsi1sk: sweepPosition(event),
          entity: 'outbox_event',
          ttl: Math.floor(Date.parse(event.createdAt) / 1000) + retentionDays * 24 * 60 * 60,
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
 * The events after sweep position `from` and written before `before`, oldest first, at most
 * `limit`. Each shard is read up to `limit` past `from`, so the oldest `limit` of them all are the
 * oldest of the whole outbox in that range. Cost: 8 queries, 0.5 RCU per 4 KB
 * read from the index (events are under 1 KB).
 */
export async function outboxEventsFrom(from: string, before: Date, limit: number): Promise<OutboxEvent[]> {
  const pages = await Promise.all(
    Array.from({ length: sweepShards }, async (_, shard) => {
      const { Items = [] } = await documentClient.send(
        new QueryCommand({
          TableName: tableName(),
          IndexName: 'gsi1',
          KeyConditionExpression: 'gsi1pk = :shard AND gsi1sk BETWEEN :from AND :before',
          ExpressionAttributeValues: {
            ':shard': `OUTBOX#PENDING#${shard}`,
            ':from': from,
            ':before': before.toISOString(),
          },
          // The condition includes `from` itself, which is not wanted.
          Limit: limit + 1,
        }),
      );
      return Items.filter((item) => item.gsi1sk !== from);
    }),
  );
  return pages
    .flat()
    .map(toOutboxEvent)
    .sort((a, b) => (sweepPosition(a) < sweepPosition(b) ? -1 : 1))
    .slice(0, limit);
}

/** Sorts before every sweep position (they start with a year): where the first sweep starts. */
const sweepStart = '0';

/** How far a sweep has gone: a sweep position, or the start before its first run. Cost: 0.5 RCU. */
export async function outboxCursor(sweep: string): Promise<string> {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: tableName(), Key: cursorKey(sweep), ConsistentRead: true }),
  );
  return (Item?.through as string | undefined) ?? sweepStart;
}

/**
 * Moves the cursor from `from` to `to`, unless another run moved it meanwhile (its own move
 * stands, and is never taken back). Cost: 1 WCU per sweeper run, whatever it swept.
 */
export async function moveOutboxCursor(sweep: string, from: string, to: string): Promise<void> {
  try {
    await documentClient.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: cursorKey(sweep),
        UpdateExpression: 'SET through = :to, entity = :entity',
        ConditionExpression: from === sweepStart ? 'attribute_not_exists(through)' : 'through = :from',
        ExpressionAttributeValues: {
          ':to': to,
          ':entity': 'outbox_cursor',
          ...(from === sweepStart ? {} : { ':from': from }),
        },
      }),
    );
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
}
