import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { ensureTable } from '#infra/local/create-table.ts';
import { type RunningDynamoDb, startDynamoDbLocal } from '#infra/local/dynamodb-local.ts';
import { useLocalAws } from '#infra/local/local-config.ts';

let running: Promise<RunningDynamoDb> | undefined;

/**
 * One in-memory DynamoDB Local for every bench of the run: the service's DynamoDB client is built
 * once per process, so all benches must talk to the same endpoint. Each bench gets its own table.
 */
export async function useBenchTable(tableName: string): Promise<void> {
  running ??= startDynamoDbLocal();
  const dynamodb = await running;
  useLocalAws({ dynamodb: dynamodb.endpoint }, tableName);
  await ensureTable(new DynamoDBClient({}), tableName);
}

export async function stopBenchDynamoDb(): Promise<void> {
  if (running) await (await running).stop();
  running = undefined;
}

export interface CapacityTotals {
  /** Capacity units DynamoDB Local reports (its figure for transactions is too low, see below). */
  reported: number;
  /** Read and write units on AWS by its pricing rules, from what the requests contained. */
  awsRead: number;
  awsWrite: number;
  requests: number;
}

/**
 * DynamoDB Local reports 2 units for a TransactWriteItems of any size; AWS charges 2 write units
 * per item of up to 1 KB in a transaction (prepare and commit), condition checks included, and 1
 * more per global secondary index the item lands in. Reads are reported right (0.5 per eventually
 * consistent 4 KB), so reads come from the report and transactional writes from this model.
 */
function modelledTransactionWriteUnits(input: {
  TransactItems?: Record<string, { Item?: Record<string, unknown> }>[];
}): number {
  let units = 0;
  for (const action of input.TransactItems ?? []) {
    units += 2;
    const item = action.Put?.Item;
    if (item && 'gsi1pk' in item) units += 1;
  }
  return units;
}

let totals: CapacityTotals = { reported: 0, awsRead: 0, awsWrite: 0, requests: 0 };
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
        const result = await next(args);
        const output = result.output as {
          ConsumedCapacity?: { CapacityUnits?: number } | { CapacityUnits?: number }[];
        };
        const units = [output.ConsumedCapacity ?? []]
          .flat()
          .reduce((sum, c) => sum + (c.CapacityUnits ?? 0), 0);
        totals.reported += units;
        if (context.commandName === 'TransactWriteItemsCommand')
          totals.awsWrite += modelledTransactionWriteUnits(input);
        else if (/Put|Update|Delete|BatchWrite/.test(context.commandName ?? '')) totals.awsWrite += units;
        else totals.awsRead += units;
        totals.requests++;
        return result;
      },
      { step: 'initialize', name: 'benchConsumedCapacity' },
    );
    tracking = true;
  }
  totals = { reported: 0, awsRead: 0, awsWrite: 0, requests: 0 };
  const result = await run();
  return { result, units: { ...totals } };
}
