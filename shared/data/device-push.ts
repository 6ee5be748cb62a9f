import { DeleteCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '#shared/aws/dynamodb.ts';
import type { AnnouncementMessage, DisplayMessage } from '#shared/domain/soundbox.ts';

/**
 * Device pushes that failed (the broker or the IoT data plane unreachable), waiting for the
 * device-push sweeper to try them again. A push that succeeds at once writes nothing: only a
 * failure costs a write, so the payment path of a healthy stage pays no write unit for devices.
 *
 * Keys:
 * - pk = DEVICEPUSH#<paymentRequestId>#<kind>, sk = PUSH: one pending push per payment request and
 *   kind, so a second failure of the same push overwrites the first instead of adding one.
 * - gsi1pk = DEVICEPUSH#PENDING, gsi1sk = <recordedAt>#<pk>: the sweeper reads them oldest first.
 *   One partition: failures are rare, and an outage's burst stays far under a partition's
 *   1,000 writes a second.
 *
 * Access patterns and cost (items ~1 KB):
 * - record a failed push: PutItem, 1 WCU + 1 for the index.
 * - list pending: Query on gsi1, 0.5 RCU per 4 KB.
 * - done (delivered or given up): DeleteItem, 1 WCU + 1 for the index.
 * - failed again: UpdateItem of the attempt count, 1 WCU (+1 for the index, its sort key unchanged).
 */
export type PendingPush =
  | (PendingPushBase & { kind: 'display'; message: DisplayMessage })
  | (PendingPushBase & { kind: 'outcome'; message: AnnouncementMessage })
  /** The display taken off, nothing said: a request that ended unpaid. */
  | (PendingPushBase & { kind: 'clear' });

interface PendingPushBase {
  deviceId: string;
  paymentRequestId: string;
  recordedAt: string;
  attempts: number;
  lastError: string;
}

const pendingPartition = 'DEVICEPUSH#PENDING';

const pushKey = (push: Pick<PendingPush, 'paymentRequestId' | 'kind'>) => ({
  pk: `DEVICEPUSH#${push.paymentRequestId}#${push.kind}`,
  sk: 'PUSH',
});

export async function recordPendingPush(push: PendingPush): Promise<void> {
  const key = pushKey(push);
  await documentClient.send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...key,
        gsi1pk: pendingPartition,
        gsi1sk: `${push.recordedAt}#${key.pk}`,
        entity: 'device_push',
        ...push,
      },
    }),
  );
}

export async function pendingPushes(limit: number): Promise<PendingPush[]> {
  const { Items = [] } = await documentClient.send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pending',
      ExpressionAttributeValues: { ':pending': pendingPartition },
      Limit: limit,
    }),
  );
  return Items.map(
    (item) =>
      ({
        kind: item.kind,
        deviceId: item.deviceId,
        paymentRequestId: item.paymentRequestId,
        recordedAt: item.recordedAt,
        attempts: item.attempts,
        lastError: item.lastError,
        message: item.message,
      }) as PendingPush,
  );
}

/** Delivered, or no longer worth delivering. */
export async function removePendingPush(push: Pick<PendingPush, 'paymentRequestId' | 'kind'>): Promise<void> {
  await documentClient.send(new DeleteCommand({ TableName: tableName(), Key: pushKey(push) }));
}

export async function countFailedAttempt(push: PendingPush, error: string): Promise<void> {
  await documentClient.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: pushKey(push),
      UpdateExpression: 'SET attempts = attempts + :one, lastError = :error',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':one': 1, ':error': error },
    }),
  );
}
