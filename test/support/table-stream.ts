import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
} from '@aws-sdk/client-dynamodb-streams';
import { tableName } from '#shared/aws/dynamodb.ts';
import type { ServiceEvent } from '#shared/events/service-event.ts';
import { eventOfChange, type TableChange } from '#shared/events/stream-jobs.ts';

/**
 * Every change of the item with partition key `pk` that the test table's stream (DynamoDB Local's)
 * holds, oldest first, as the stream consumer is given them.
 */
export async function streamChangesOf(pk: string): Promise<TableChange[]> {
  const endpoint = process.env.AWS_ENDPOINT_URL_DYNAMODB;
  const dynamodb = new DynamoDBClient({});
  const streams = new DynamoDBStreamsClient({ endpoint });
  try {
    const { Table } = await dynamodb.send(new DescribeTableCommand({ TableName: tableName() }));
    const streamArn = Table?.LatestStreamArn as string;
    const { StreamDescription } = await streams.send(new DescribeStreamCommand({ StreamArn: streamArn }));
    const changes: TableChange[] = [];
    for (const shard of StreamDescription?.Shards ?? []) {
      let { ShardIterator: iterator } = await streams.send(
        new GetShardIteratorCommand({
          StreamArn: streamArn,
          ShardId: shard.ShardId,
          ShardIteratorType: 'TRIM_HORIZON',
        }),
      );
      while (iterator) {
        const { Records = [], NextShardIterator } = await streams.send(
          new GetRecordsCommand({ ShardIterator: iterator }),
        );
        for (const record of Records) {
          if (record.dynamodb?.Keys?.pk?.S !== pk) continue;
          changes.push({
            eventName: record.eventName,
            oldImage: record.dynamodb.OldImage as TableChange['oldImage'],
            newImage: record.dynamodb.NewImage as TableChange['newImage'],
          });
        }
        // An open shard answers an iterator forever: stop at its end for now.
        iterator = Records.length === 0 ? undefined : NextShardIterator;
      }
    }
    return changes;
  } finally {
    dynamodb.destroy();
    streams.destroy();
  }
}

/** The events the stream's consumer announces from the changes of the items of partition `pk`. */
export async function eventsAnnouncedFor(pk: string): Promise<ServiceEvent[]> {
  const events: ServiceEvent[] = [];
  for (const change of await streamChangesOf(pk)) {
    const event = await eventOfChange(change);
    if (event) events.push(event);
  }
  return events;
}
