import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import type { Caller } from '#shared/domain/caller.ts';
import type { VerifiedCallback } from '#shared/providers/port.ts';
import { useBenchTable } from '#test/bench/bench-dynamodb.ts';
import type { Bench } from '#test/bench/report.ts';
import { redirectRequestBody } from '#test/support/payment-request-body.ts';

/** Concurrent verified callbacks per round. */
const concurrency = 50;
/** Odd, so the median is one measured round. */
const rounds = 5;

export interface HotStoreScenario {
  scenario: string;
  completionsPerSecond: number;
  /** Transactions cancelled by another touching the same item, per completion. */
  conflictsPerCompletion: number;
  /** Transaction attempts beyond the first, per completion. */
  retriesPerCompletion: number;
  /** Completions that gave up after the retries (should be 0). */
  failed: number;
  auditOk: boolean;
  rounds: { completionsPerSecond: number; conflicts: number; attempts: number }[];
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/**
 * 50 verified callbacks at once, on DynamoDB Local: all for one store (its wallet, its business's
 * ceiling month and list counters are the same items), spread over 50 stores of one business
 * (only the business's ceiling month and list counter shared), and over 50 stores of 50
 * businesses (nothing shared). Counts every TransactWriteItems attempt and every cancellation for
 * a conflict, then checks the books.
 */
async function measureHotStore(): Promise<HotStoreScenario[]> {
  await useBenchTable('bench-hot-store');
  process.env.AUTH_CACHE_TTL_SECONDS = '0';
  process.env.SANDBOX = 'true';
  const { dynamodb } = await import('#shared/aws/dynamodb.ts');
  const { createBusiness } = await import('#shared/data/business.ts');
  const { createStore } = await import('#shared/data/store.ts');
  const { createApiKey } = await import('#shared/data/api-key.ts');
  const { authenticate } = await import('#shared/http/authenticate.ts');
  const { createPaymentRequestFor, startCollection } = await import('#shared/operations/payment-requests.ts');
  const { completePayment } = await import('#shared/settlement/collections.ts');
  const { auditLedger } = await import('#shared/audit/ledger-audit.ts');

  let attempts = 0;
  let conflicts = 0;
  dynamodb.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName !== 'TransactWriteItemsCommand') return next(args);
      attempts++;
      try {
        return await next(args);
      } catch (error) {
        if (
          error instanceof TransactionCanceledException &&
          error.CancellationReasons?.some((reason) => reason.Code === 'TransactionConflict')
        )
          conflicts++;
        throw error;
      }
    },
    { step: 'initialize', name: 'benchConflicts' },
  );

  const newBusiness = async () => {
    const { business, owner } = await createBusiness({
      name: 'Hot',
      apiAccessEnabled: true,
      isServiceProvider: false,
      verificationLevel: 3,
    });
    const { apiKey, secret } = await createApiKey({
      businessId: business.id,
      kind: 'merchant',
      memberId: owner.id,
      name: 'k',
    });
    const caller = await authenticate({ 'x-api-key-id': apiKey.id, 'x-api-key': secret }, 'api_key');
    return { business, caller };
  };
  const baseUrl = 'http://localhost:0';
  const startedCallback = async (caller: Caller, storeId: string): Promise<VerifiedCallback> => {
    const request = await createPaymentRequestFor(
      caller,
      redirectRequestBody(storeId, { reference: `hot-${randomUUID()}` }),
      baseUrl,
    );
    const started = await startCollection(request, 'redirect', 'wave', '+2250700000001', baseUrl);
    return {
      callbackId: randomUUID(),
      provider: 'wave',
      providerReference: started.providerReference as string,
      paymentRequestId: request.id,
      outcome: 'success',
      payerPhone: '+2250700000001',
    };
  };

  const oneStore = await newBusiness();
  const hotStore = await createStore({ businessId: oneStore.business.id, name: 'Hot' });
  const manyStores = await newBusiness();
  const storesOfOne = await Promise.all(
    Array.from({ length: concurrency }, (_, i) =>
      createStore({ businessId: manyStores.business.id, name: `S${i}` }),
    ),
  );
  const businesses = await Promise.all(
    Array.from({ length: concurrency }, async () => {
      const b = await newBusiness();
      return { ...b, store: await createStore({ businessId: b.business.id, name: 'S' }) };
    }),
  );
  const scenarios: { scenario: string; targets: () => { caller: Caller; storeId: string }[] }[] = [
    {
      scenario: '50 callbacks at one store',
      targets: () =>
        Array.from({ length: concurrency }, () => ({ caller: oneStore.caller, storeId: hotStore.id })),
    },
    {
      scenario: '50 callbacks over 50 stores of one business',
      targets: () => storesOfOne.map((store) => ({ caller: manyStores.caller, storeId: store.id })),
    },
    {
      scenario: '50 callbacks over 50 stores of 50 businesses',
      targets: () => businesses.map((b) => ({ caller: b.caller, storeId: b.store.id })),
    },
  ];

  const results: HotStoreScenario[] = [];
  for (const { scenario, targets } of scenarios) {
    const measured: HotStoreScenario['rounds'] = [];
    let failed = 0;
    for (let round = 0; round < rounds; round++) {
      const callbacks = [];
      for (const target of targets()) callbacks.push(await startedCallback(target.caller, target.storeId));
      attempts = 0;
      conflicts = 0;
      const started = performance.now();
      const outcomes = await Promise.allSettled(callbacks.map((callback) => completePayment(callback)));
      const seconds = (performance.now() - started) / 1000;
      failed += outcomes.filter((o) => o.status === 'rejected' || o.value.result !== 'completed').length;
      measured.push({ completionsPerSecond: concurrency / seconds, conflicts, attempts });
    }
    const audit = await auditLedger();
    results.push({
      scenario,
      completionsPerSecond: median(measured.map((r) => r.completionsPerSecond)),
      conflictsPerCompletion: median(measured.map((r) => r.conflicts / concurrency)),
      retriesPerCompletion: median(measured.map((r) => (r.attempts - concurrency) / concurrency)),
      failed,
      auditOk: audit.ok,
      rounds: measured,
    });
  }
  return results;
}

export const hotStore: Bench = async () => {
  const results = await measureHotStore();
  return {
    name: 'hot-store',
    title: `Concurrent verified callbacks on DynamoDB Local (${concurrency} at once, median of ${rounds} rounds)`,
    columns: [
      'scenario',
      'completions/s',
      'conflicts per completion',
      'retries per completion',
      'failed',
      'audit',
    ],
    rows: results.map((r) => [
      r.scenario,
      r.completionsPerSecond,
      r.conflictsPerCompletion,
      r.retriesPerCompletion,
      r.failed,
      r.auditOk ? 'holds' : 'BROKEN',
    ]),
    data: results,
  };
};
