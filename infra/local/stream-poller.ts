import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DescribeTableCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  type DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type _Record as StreamRecord,
} from '@aws-sdk/client-dynamodb-streams';
import type { Context, DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { streamConsumerEntries } from '#shared/catalogue/stream-consumers.ts';
import { lambdaContext } from './lambda-context.ts';

/** A stream consumer's handler: answers a `DynamoDBBatchResponse`, or nothing when every record succeeded. */
export type StreamHandler = (event: DynamoDBStreamEvent, context: Context) => unknown;

export interface StreamPoller {
  /** Ends the polling and waits for a batch being handled. */
  stop(): Promise<void>;
}

export interface PollTableStreamOptions {
  readonly dynamodb: DynamoDBClient;
  readonly streams: DynamoDBStreamsClient;
  readonly tableName: string;
  readonly functionName: string;
  readonly batchSize: number;
  readonly handler: StreamHandler | { readonly entry: string; readonly projectRoot: string };
  /** Pause between reads of a shard that had nothing new: Lambda polls a shard about 4 times a second. */
  readonly idleMs?: number;
  /** Tries of a failing record before it is given up (logged: the on-failure queue on AWS). */
  readonly maxAttempts?: number;
  /**
   * Where the last record handled of each shard is kept, so a restart goes on from there: the
   * stream is the only way events leave, so a change committed just before a stop is still sent.
   */
  readonly positionFile?: string;
}

/**
 * Plays the part of Lambda's DynamoDB stream event source mapping on the laptop: reads every shard
 * of the table's stream in order, hands the records to the consumer as a DynamoDBStreamEvent and,
 * as `ReportBatchItemFailures` does, starts again from the first record the consumer reports
 * failed, a few times, before giving it up. Like the mapping, it goes on from where it stopped:
 * each shard from the record after the last one handled (kept in `positionFile`), a shard it has
 * not handled from its oldest record (`TRIM_HORIZON`, as the stack's mapping starts): what every
 * record does is safe to do twice. The mapping's filter is not applied: consumers check what they
 * are given.
 */
export function pollTableStream(options: PollTableStreamOptions): StreamPoller {
  const { streams, functionName, batchSize } = options;
  const idleMs = options.idleMs ?? 250;
  const maxAttempts = options.maxAttempts ?? 5;
  const loadHandler = handlerLoader(options.handler);
  let stopped = false;
  let wake: (() => void) | undefined;
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  const iterators = new Map<string, string | undefined>();
  const handled = new Map<string, string>(Object.entries(readPositions(options.positionFile)));
  const keepPosition = (shardId: string, sequenceNumber: string | undefined) => {
    if (!options.positionFile || !sequenceNumber) return;
    handled.set(shardId, sequenceNumber);
    const temporary = `${options.positionFile}.tmp`;
    writeFileSync(temporary, JSON.stringify(Object.fromEntries(handled)));
    renameSync(temporary, options.positionFile);
  };
  const iteratorOf = async (streamArn: string, shardId: string) => {
    const after = handled.get(shardId);
    if (after) {
      try {
        const { ShardIterator } = await streams.send(
          new GetShardIteratorCommand({
            StreamArn: streamArn,
            ShardId: shardId,
            ShardIteratorType: 'AFTER_SEQUENCE_NUMBER',
            SequenceNumber: after,
          }),
        );
        return ShardIterator;
      } catch (error) {
        // Trimmed past it (a host stopped longer than the stream keeps records): from the oldest left.
        console.error(`[${functionName}] cannot go on after record ${after} of ${shardId}:`, error);
      }
    }
    const { ShardIterator } = await streams.send(
      new GetShardIteratorCommand({
        StreamArn: streamArn,
        ShardId: shardId,
        ShardIteratorType: 'TRIM_HORIZON',
      }),
    );
    return ShardIterator;
  };
  const discover = async (streamArn: string, firstTime: boolean) => {
    let exclusiveStartShardId: string | undefined;
    do {
      const { StreamDescription } = await streams.send(
        new DescribeStreamCommand({ StreamArn: streamArn, ExclusiveStartShardId: exclusiveStartShardId }),
      );
      for (const shard of StreamDescription?.Shards ?? []) {
        const shardId = shard.ShardId as string;
        if (iterators.has(shardId)) continue;
        const closed = shard.SequenceNumberRange?.EndingSequenceNumber !== undefined;
        // A closed shard from before any position was kept holds nothing this host still owes.
        if (firstTime && closed && handled.size === 0) {
          iterators.set(shardId, undefined);
          continue;
        }
        iterators.set(shardId, await iteratorOf(streamArn, shardId));
      }
      exclusiveStartShardId = StreamDescription?.LastEvaluatedShardId;
    } while (exclusiveStartShardId);
  };

  const handle = async (records: DynamoDBRecord[]) => {
    let remaining = records;
    for (let attempt = 1; remaining.length > 0; attempt++) {
      let failedFrom: number;
      try {
        const handler = await loadHandler();
        const answer = await handler({ Records: remaining }, lambdaContext(functionName, 60_000));
        failedFrom = firstFailure(answer, remaining);
      } catch (error) {
        console.error(`[${functionName}] failed:`, error);
        failedFrom = 0;
      }
      if (failedFrom < 0) return;
      remaining = remaining.slice(failedFrom);
      if (attempt >= maxAttempts) {
        console.error(
          `[${functionName}] gave up on stream record ${remaining[0]?.dynamodb?.SequenceNumber} after ${attempt} attempts`,
        );
        remaining = remaining.slice(1);
        attempt = 0;
        continue;
      }
      await pause(Math.min(1000 * attempt, 5000));
      if (stopped) return;
    }
  };

  const loop = async () => {
    const { Table } = await options.dynamodb.send(new DescribeTableCommand({ TableName: options.tableName }));
    const streamArn = Table?.LatestStreamArn;
    if (!streamArn) throw new Error(`table ${options.tableName} has no stream`);
    await discover(streamArn, true);
    let sinceDiscovery = 0;
    while (!stopped) {
      let read = 0;
      for (const [shardId, iterator] of iterators) {
        if (!iterator || stopped) continue;
        const { Records = [], NextShardIterator } = await streams.send(
          new GetRecordsCommand({ ShardIterator: iterator, Limit: batchSize }),
        );
        iterators.set(shardId, NextShardIterator);
        read += Records.length;
        if (Records.length > 0) {
          await handle(Records.map((record) => toLambdaRecord(record, streamArn)));
          keepPosition(shardId, Records.at(-1)?.dynamodb?.SequenceNumber);
        }
      }
      // New shards appear as the stream rolls them over.
      if (++sinceDiscovery >= 20) {
        sinceDiscovery = 0;
        await discover(streamArn, false);
      }
      if (read === 0) await pause(idleMs);
    }
  };

  const running = (async () => {
    while (!stopped) {
      try {
        await loop();
      } catch (error) {
        if (stopped) return;
        console.error(`[${functionName}] stream polling failed; starting again:`, error);
        iterators.clear();
        await pause(1000);
      }
    }
  })();
  return {
    stop: async () => {
      stopped = true;
      wake?.();
      await running;
    },
  };
}

/** One poller per stream consumer of the function catalogue, each keeping its position under `dataDir`. */
export function pollTableStreams(options: {
  dynamodb: DynamoDBClient;
  streams: DynamoDBStreamsClient;
  tableName: string;
  projectRoot: string;
  dataDir?: string;
}): StreamPoller {
  const pollers = streamConsumerEntries.map(([name, consumer]) =>
    pollTableStream({
      ...options,
      functionName: name,
      batchSize: consumer.batchSize,
      handler: { entry: consumer.entry, projectRoot: options.projectRoot },
      ...(options.dataDir ? { positionFile: join(options.dataDir, `stream-position-${name}.json`) } : {}),
    }),
  );
  return { stop: async () => void (await Promise.all(pollers.map((poller) => poller.stop()))) };
}

function readPositions(file: string | undefined): Record<string, string> {
  if (!file || !existsSync(file)) return {};
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
  } catch {
    return {};
  }
}

function handlerLoader(handler: PollTableStreamOptions['handler']): () => Promise<StreamHandler> {
  if (typeof handler === 'function') return async () => handler;
  let loading: Promise<StreamHandler> | undefined;
  return () => {
    loading ??= import(pathToFileURL(join(handler.projectRoot, handler.entry)).href).then(
      (module: { handler?: StreamHandler }) => {
        if (typeof module.handler !== 'function') throw new Error(`${handler.entry} exports no handler`);
        return module.handler;
      },
    );
    loading.catch(() => {
      loading = undefined;
    });
    return loading;
  };
}

/** The index of the first record reported failed, or −1: Lambda resumes from the lowest one. */
function firstFailure(answer: unknown, records: DynamoDBRecord[]): number {
  if (answer === undefined || answer === null) return -1;
  const failures = (answer as Partial<DynamoDBBatchResponse>).batchItemFailures ?? [];
  if (!Array.isArray(failures)) return 0;
  let first = -1;
  for (const failure of failures) {
    const index = records.findIndex((record) => record.dynamodb?.SequenceNumber === failure?.itemIdentifier);
    // A failure naming no record of the batch fails the whole batch, as on AWS.
    if (index < 0) return 0;
    if (first < 0 || index < first) first = index;
  }
  return first;
}

function toLambdaRecord(record: StreamRecord, streamArn: string): DynamoDBRecord {
  const change = record.dynamodb ?? {};
  return {
    eventID: record.eventID,
    eventName: record.eventName as DynamoDBRecord['eventName'],
    eventVersion: record.eventVersion,
    eventSource: 'aws:dynamodb',
    awsRegion: record.awsRegion,
    eventSourceARN: streamArn,
    dynamodb: {
      ...(change.ApproximateCreationDateTime
        ? { ApproximateCreationDateTime: Math.floor(change.ApproximateCreationDateTime.getTime() / 1000) }
        : {}),
      Keys: change.Keys as NonNullable<DynamoDBRecord['dynamodb']>['Keys'],
      NewImage: change.NewImage as NonNullable<DynamoDBRecord['dynamodb']>['NewImage'],
      OldImage: change.OldImage as NonNullable<DynamoDBRecord['dynamodb']>['OldImage'],
      SequenceNumber: change.SequenceNumber,
      SizeBytes: change.SizeBytes,
      StreamViewType: change.StreamViewType as NonNullable<DynamoDBRecord['dynamodb']>['StreamViewType'],
    },
  };
}
