import { performance } from 'node:perf_hooks';
import { type AttributeValue, DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { ensureTable } from '#infra/local/create-table.ts';
import { type RunningDynamoDb, startDynamoDbLocal } from '#infra/local/dynamodb-local.ts';
import { newLocalKeyMaterial, type RunningKms, startKmsStandIn } from '#infra/local/kms.ts';
import { useLocalAws } from '#infra/local/local-config.ts';
import { tableDefinition } from '#shared/data/table-definition.ts';

let running: Promise<RunningDynamoDb> | undefined;
let kms: Promise<RunningKms> | undefined;

/**
 * One in-memory DynamoDB Local for every bench of the run: the service's DynamoDB client is built
 * once per process, so all benches must talk to the same endpoint. Each bench gets its own table.
 */
export async function useBenchTable(tableName: string): Promise<void> {
  running ??= startDynamoDbLocal();
  // Webhook subscriptions keep their secret encrypted, as on a stage.
  kms ??= startKmsStandIn({ keyMaterial: newLocalKeyMaterial() });
  const dynamodb = await running;
  useLocalAws({ dynamodb: dynamodb.endpoint, kms: (await kms).endpoint }, tableName);
  await ensureTable(new DynamoDBClient({}), tableName);
}

export async function stopBenchDynamoDb(): Promise<void> {
  if (running) await (await running).stop();
  if (kms) await (await kms).stop();
  running = undefined;
  kms = undefined;
}

export interface CapacityTotals {
  /** Capacity units DynamoDB Local reports (its figure for transactions is too low, see below). */
  reported: number;
  /** Read and write units on AWS by its pricing rules, from what the requests contained. */
  awsRead: number;
  awsWrite: number;
  requests: number;
  /** The largest item written, before or after the write. */
  largestItemBytes: number;
  /** `pk|sk` of every item written. */
  writtenKeys: string[];
  /** Each item written, its key with ids and dates generalised, and the write units it cost. */
  writes: { item: string; units: number }[];
  /** Each request, in the order sent, with when it was sent and answered (ms, this process's clock). */
  calls: { command: string; sentAt: number; answeredAt: number }[];
}

/** A key with its ids, dates and times replaced, so that the same item reads the same each time. */
export const itemLabel = (pk: string | undefined, sk: string | undefined) =>
  `${pk}|${sk}`
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<id>')
    .replace(/\d{4}-\d{2}-\d{2}T[\d:.]+Z/g, '<time>')
    .replace(/\d{4}-\d{2}-\d{2}/g, '<day>')
    .replace(/\d{4}-\d{2}(?=\b|$)/g, '<month>');

/**
 * Round trips: requests sent while another was awaited count as one (they overlap); a request
 * sent after the others were answered starts the next.
 */
export function roundTrips(calls: CapacityTotals['calls']): number {
  let trips = 0;
  let answeredBy = Number.NEGATIVE_INFINITY;
  for (const call of [...calls].sort((a, b) => a.sentAt - b.sentAt)) {
    if (call.sentAt >= answeredBy) trips++;
    answeredBy = Math.max(answeredBy, call.answeredAt);
  }
  return trips;
}

/**
 * DynamoDB Local reports 2 units for a TransactWriteItems of any size, and no units for the
 * indexes. AWS charges a write 1 unit per KB of the item (the larger of its size before and after),
 * twice inside a transaction (prepare and commit), condition checks included, plus 1 unit per KB
 * in each global secondary index the item is, was or becomes part of. So writes are modelled from
 * the items themselves, read before and after the request with a client of their own; reads are
 * reported right (0.5 per eventually consistent 4 KB) and come from the report.
 */
let inspector: DynamoDBClient | undefined;

type KeyOf = Record<string, AttributeValue>;

interface WrittenItem {
  key: KeyOf;
  transactional: boolean;
}

function writtenItems(command: string, input: Record<string, unknown>): WrittenItem[] {
  const keyOf = (action: { Item?: KeyOf; Key?: KeyOf }): KeyOf => {
    const source = (action.Key ?? action.Item) as Record<string, AttributeValue | string>;
    // Document-client commands are not marshalled yet when this middleware runs.
    const attribute = (value: AttributeValue | string | undefined): AttributeValue =>
      typeof value === 'string' ? { S: value } : (value as AttributeValue);
    return { pk: attribute(source.pk), sk: attribute(source.sk) };
  };
  if (command === 'TransactWriteItemsCommand') {
    const actions = (input.TransactItems ?? []) as Record<string, { Item?: KeyOf; Key?: KeyOf }>[];
    return actions.flatMap((action) =>
      Object.values(action).map((inner) => ({ key: keyOf(inner), transactional: true })),
    );
  }
  if (/^(Put|Update|Delete)ItemCommand$/.test(command))
    return [{ key: keyOf(input as { Item?: KeyOf; Key?: KeyOf }), transactional: false }];
  return [];
}

async function readRaw(key: KeyOf): Promise<Record<string, AttributeValue> | undefined> {
  inspector ??= new DynamoDBClient({});
  const { Item } = await inspector.send(
    new GetItemCommand({ TableName: process.env.TABLE_NAME, Key: key, ConsistentRead: true }),
  );
  return Item;
}

/** An item's size by DynamoDB's rules: names and values in UTF-8 bytes, numbers about 1 byte per 2 digits. */
export function itemBytes(item: Record<string, AttributeValue> | undefined): number {
  if (!item) return 0;
  return Object.entries(item).reduce(
    (sum, [name, value]) => sum + Buffer.byteLength(name) + valueBytes(value),
    0,
  );
}

function valueBytes(value: AttributeValue): number {
  if (value.S !== undefined) return Buffer.byteLength(value.S);
  if (value.N !== undefined) return Math.ceil(value.N.replace(/^-|\.|^0+/g, '').length / 2) + 1;
  if (value.BOOL !== undefined || value.NULL !== undefined) return 1;
  if (value.B !== undefined) return value.B.length;
  if (value.M !== undefined)
    return (
      3 +
      Object.entries(value.M).reduce((sum, [name, v]) => sum + Buffer.byteLength(name) + valueBytes(v) + 1, 0)
    );
  if (value.L !== undefined) return 3 + value.L.reduce((sum, v) => sum + valueBytes(v) + 1, 0);
  if (value.SS !== undefined) return value.SS.reduce((sum, v) => sum + Buffer.byteLength(v), 0);
  if (value.NS !== undefined) return value.NS.reduce((sum, v) => sum + v.length, 0);
  return 0;
}

const kilobytes = (bytes: number) => Math.max(1, Math.ceil(bytes / 1024));
const indexes = tableDefinition.globalSecondaryIndexes.map((index) => index.partitionKey);

function writeUnits(
  before: Record<string, AttributeValue> | undefined,
  after: Record<string, AttributeValue> | undefined,
  transactional: boolean,
): number {
  const size = kilobytes(Math.max(itemBytes(before), itemBytes(after)));
  let units = size * (transactional ? 2 : 1);
  for (const index of indexes) if (before?.[index] || after?.[index]) units += size;
  return units;
}

const zero = (): CapacityTotals => ({
  reported: 0,
  awsRead: 0,
  awsWrite: 0,
  requests: 0,
  largestItemBytes: 0,
  writtenKeys: [],
  writes: [],
  calls: [],
});
let totals = zero();
let tracking = false;

/**
 * Counts the units of every request of the service's DynamoDB client, by asking each for its
 * consumed capacity in a client middleware: product code is measured unchanged.
 */
export async function measureUnits<T>(run: () => Promise<T>): Promise<{ result: T; units: CapacityTotals }> {
  if (!tracking) {
    const { dynamodb } = await import('#shared/aws/dynamodb.ts');
    dynamodb.middlewareStack.add(
      (next, context) => async (args) => {
        const input = args.input as Record<string, unknown>;
        input.ReturnConsumedCapacity = 'TOTAL';
        const command = context.commandName ?? '';
        const written = writtenItems(command, input);
        const before = await Promise.all(written.map((w) => readRaw(w.key)));
        // The inspector's reads are not the product's: the round trip is timed around `next` alone.
        const sentAt = performance.now();
        const result = await next(args);
        totals.calls.push({
          command: command.replace(/Command$/, ''),
          sentAt,
          answeredAt: performance.now(),
        });
        const after = await Promise.all(written.map((w) => readRaw(w.key)));
        for (const [i, w] of written.entries()) {
          const units = writeUnits(before[i], after[i], w.transactional);
          totals.awsWrite += units;
          totals.writes.push({ item: itemLabel(w.key.pk?.S, w.key.sk?.S), units });
          totals.largestItemBytes = Math.max(
            totals.largestItemBytes,
            itemBytes(before[i]),
            itemBytes(after[i]),
          );
          totals.writtenKeys.push(`${w.key.pk?.S}|${w.key.sk?.S}`);
        }
        const output = result.output as {
          ConsumedCapacity?: { CapacityUnits?: number } | { CapacityUnits?: number }[];
        };
        const units = [output.ConsumedCapacity ?? []]
          .flat()
          .reduce((sum, c) => sum + (c.CapacityUnits ?? 0), 0);
        totals.reported += units;
        if (written.length === 0) totals.awsRead += units;
        totals.requests++;
        return result;
      },
      { step: 'initialize', name: 'benchConsumedCapacity' },
    );
    tracking = true;
  }
  totals = zero();
  const result = await run();
  return { result, units: { ...totals, writes: [...totals.writes], calls: [...totals.calls] } };
}

/** The median time of `runs` runs of `run` (ms), each awaited before the next. */
export async function medianMs(run: () => Promise<unknown>, runs: number): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await run();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(runs / 2)] ?? 0;
}
