import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { useBenchTable } from '#test/bench/bench-dynamodb.ts';
import type { Bench } from '#test/bench/report.ts';

/** Concurrent clients, seconds per measurement, and rounds (each round measures both, alternating). */
const clients = Number(process.env.CREATION_CLIENTS ?? 8);
const seconds = Number(process.env.CREATION_SECONDS ?? 3);
const rounds = Number(process.env.CREATION_ROUNDS ?? 5);

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

export interface CreationRate {
  clients: number;
  seconds: number;
  /** Per round, operations a second. */
  rawPutsPerSecond: number[];
  createsPerSecond: number[];
  medianRawPutsPerSecond: number;
  medianCreatesPerSecond: number;
  /** Per round, creates over the raw puts measured just before them; and their median. */
  ratios: number[];
  ratio: number;
  /** DynamoDB requests one create makes, and how many of them wait for another. */
  requestsPerCreate: number;
}

/**
 * How fast payment requests are created (the operation, `createPaymentRequestFor`, with its reads
 * and writes on DynamoDB Local) against raw conditional puts of an item of the same size, from
 * the same number of concurrent clients in the same process and through the same client: what
 * the operation costs beyond one write. Rounds alternate the two so that the machine's load
 * weighs on both alike.
 */
async function measureCreationRate(): Promise<CreationRate> {
  await useBenchTable('bench-creation');
  process.env.AUTH_CACHE_TTL_SECONDS = '600';
  process.env.SANDBOX = 'true';
  const { merchant } = await import('#test/support/fixtures.ts');
  const { createPaymentRequestFor } = await import('#shared/operations/payment-requests.ts');
  const { documentClient, dynamodb, tableName } = await import('#shared/aws/dynamodb.ts');
  const { paymentRequestKey } = await import('#shared/data/payment-request.ts');
  const { GetCommand, PutCommand } = await import('@aws-sdk/lib-dynamodb');
  // Level 2: a ceiling, so the month's count is read as for most businesses.
  const m = await merchant({ verificationLevel: 2 });
  const body = () => ({
    storeId: m.store.id,
    amountCents: 1_500,
    currency: 'XOF',
    reference: `rate-${randomUUID()}`,
    paymentDetails: {
      type: 'redirect' as const,
      data: {
        paymentMethod: 'wave' as const,
        successUrl: 'https://shop.example/ok',
        errorUrl: 'https://shop.example/ko',
      },
    },
  });
  const create = () => createPaymentRequestFor(m.caller, body(), 'http://localhost:0');
  const sample = await create();
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: tableName(), Key: paymentRequestKey(sample.id) }),
  );
  const rawPut = () =>
    documentClient.send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...Item, pk: `RAW#${randomUUID()}` },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );

  let counting = false;
  let requests = 0;
  dynamodb.middlewareStack.add(
    (next) => async (args) => {
      if (counting) requests++;
      return next(args);
    },
    { step: 'initialize', name: 'benchCreationRequests' },
  );
  counting = true;
  await create();
  counting = false;
  const requestsPerCreate = requests;

  async function rate(run: () => Promise<unknown>): Promise<number> {
    let done = 0;
    const until = performance.now() + seconds * 1000;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: clients }, async () => {
        while (performance.now() < until) {
          await run();
          done++;
        }
      }),
    );
    return Math.round((done / ((performance.now() - started) / 1000)) * 10) / 10;
  }
  // Warm both paths (connections, JIT) before measuring.
  await rate(rawPut);
  await rate(create);
  const rawPutsPerSecond: number[] = [];
  const createsPerSecond: number[] = [];
  for (let round = 0; round < rounds; round++) {
    rawPutsPerSecond.push(await rate(rawPut));
    createsPerSecond.push(await rate(create));
  }
  // The machine's load moves both rates from round to round: each round's pair is compared.
  const ratios = createsPerSecond.map(
    (creates, round) => Math.round((creates / (rawPutsPerSecond[round] as number)) * 100) / 100,
  );
  return {
    clients,
    seconds,
    rawPutsPerSecond,
    createsPerSecond,
    medianRawPutsPerSecond: median(rawPutsPerSecond),
    medianCreatesPerSecond: median(createsPerSecond),
    ratios,
    ratio: median(ratios),
    requestsPerCreate,
  };
}

export const capacityCreationRate: Bench = async () => {
  const result = await measureCreationRate();
  return {
    name: 'capacity-creation-rate',
    title: `Payment request creation against raw DynamoDB Local puts of the same item, ${result.clients} concurrent clients, ${result.seconds} s a round, ${rounds} rounds (operations a second; medians)`,
    columns: ['measure', 'per round', 'median'],
    rows: [
      ['raw conditional puts', result.rawPutsPerSecond.join(', '), result.medianRawPutsPerSecond],
      [
        'POST /payment_requests (the operation)',
        result.createsPerSecond.join(', '),
        result.medianCreatesPerSecond,
      ],
      ['creates per raw put', result.ratios.join(', '), result.ratio],
      ['DynamoDB requests per create', '', result.requestsPerCreate],
    ],
    data: result,
  };
};
