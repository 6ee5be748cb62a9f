import { performance } from 'node:perf_hooks';
import { useBenchTable } from '#test/bench/bench-dynamodb.ts';
import type { Bench } from '#test/bench/report.ts';

/**
 * The deterministic simulation at length (test/support/simulation.ts): 10,000 operations with
 * faults by default (`SIMULATION_OPERATIONS`, `SIMULATION_SEED` to replay one), on DynamoDB Local.
 * Reports what was simulated, the faults injected, the audits run, and the money and SMS segments
 * lost or created, which must be 0.
 */
export const simulation: Bench = async () => {
  await useBenchTable('bench-simulation');
  process.env.AUTH_CACHE_TTL_SECONDS = '0';
  // The operations' own logs and metrics would be most of the run's output.
  process.env.POWERTOOLS_LOG_LEVEL = 'CRITICAL';
  process.env.POWERTOOLS_METRICS_DISABLED = 'true';
  const { simulate } = await import('#test/support/simulation.ts');
  const seed = Number(process.env.SIMULATION_SEED ?? Date.now() % 2 ** 31);
  const operations = Number(process.env.SIMULATION_OPERATIONS ?? 10_000);
  const started = performance.now();
  const report = await simulate({ seed, operations, auditEvery: 250 });
  const seconds = (performance.now() - started) / 1000;
  if (
    report.moneyLostOrCreatedCents !== 0 ||
    report.smsSegmentsLostOrCreated !== 0 ||
    report.mismatches.length > 0
  ) {
    throw new Error(`simulation seed ${seed} went wrong: ${report.mismatches.join('; ')}`);
  }
  const faults = Object.values(report.faults).reduce((sum, n) => sum + n, 0);
  return {
    name: 'simulation',
    title: `Deterministic simulation with faults (seed ${seed})`,
    columns: ['measure', 'value'],
    rows: [
      ['operations', report.operations],
      ['operations failed (as a caller saw them)', report.operationsFailed],
      ['DynamoDB calls', report.sdkCalls],
      ['faults injected', faults],
      ...Object.entries(report.faults).map(([kind, n]) => [`  ${kind}`, n] as [string, number]),
      ['callbacks delivered', report.callbacksDelivered],
      ['payments succeeded', report.paymentsSucceeded],
      ['orphan collections refunded or owed', report.orphanCollections],
      ...Object.entries(report.paymentRequestsEnded).map(
        ([reason, n]) => [`payment requests ended unpaid: ${reason}`, n] as [string, number],
      ),
      ['  successes after their end, refunded', report.lateSuccessesRefunded],
      ['payments held in escrow', report.escrows],
      ['payouts paid (transfers and refunds)', report.payoutsPaid],
      ['SMS recorded (charged)', report.smsRecorded],
      ['SMS refused for want of segments', report.smsRefusedForBalance],
      ['SMS segments topped up', report.smsSegmentsCredited],
      ['SMS segments charged (not given back)', report.smsSegmentsCharged],
      [
        'SMS recorded by a sender killed before its queue send (sent from the stream)',
        report.smsRecordedByKilledSender,
      ],
      ['SMS the gateway took twice (after a failed attempt)', report.smsHandedToGatewayTwice],
      ['webhooks owed for completed payments', report.webhooksExpected],
      ['  failed: the endpoint refused every attempt', report.webhooksFailedAfterEveryAttempt],
      ['webhook deliveries acknowledged', report.webhooksAcknowledged],
      ['webhook attempts the endpoint refused', report.webhookAttemptsRefused],
      ['webhooks acknowledged twice (after a failed attempt)', report.webhooksAcknowledgedTwice],
      ['queue messages handed again after being handled', report.queueRedeliveries],
      ['queue messages retried after a failure', report.queueRetries],
      ['queue messages dead-lettered', report.queueDeadLettered],
      ['audits after an operation (what it wrote)', report.stepAudits],
      ['full audits (the whole table)', report.audits],
      ['money lost or created (cents)', report.moneyLostOrCreatedCents],
      ['SMS segments lost or created', report.smsSegmentsLostOrCreated],
      ['seconds', Math.round(seconds)],
      ['operations per second', Math.round((report.operations / seconds) * 10) / 10],
    ],
    data: { ...report, seconds },
  };
};
