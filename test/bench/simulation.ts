import { performance } from 'node:perf_hooks';
import { useBenchTable } from '#test/bench/bench-dynamodb.ts';
import type { Bench } from '#test/bench/report.ts';

/**
 * The deterministic simulation at length (test/simulation/simulate.ts): 10,000 operations with
 * faults by default (`SIMULATION_OPERATIONS`; `SIMULATION_SEED` to replay one), on DynamoDB Local.
 * The report is the run's, bit for bit: two runs of one seed print the same table, whatever the
 * machine and its load. The real time it took is not part of it: it goes to stderr, so the
 * standard output of two runs can be compared as they are.
 */
export const simulation: Bench = async () => {
  await useBenchTable('bench-simulation');
  // The operations' own logs would be most of the run's output (their metrics: metrics-off.ts).
  process.env.POWERTOOLS_LOG_LEVEL = 'CRITICAL';
  const { simulate } = await import('#test/simulation/simulate.ts');
  const seed = Number(process.env.SIMULATION_SEED ?? Date.now() % 2 ** 31);
  const operations = Number(process.env.SIMULATION_OPERATIONS ?? 10_000);
  const started = performance.now();
  const report = await simulate({ seed, operations });
  const seconds = (performance.now() - started) / 1000;
  console.error(
    `simulation seed ${seed}: ${Math.round(seconds)} s of real time, ${Math.round((operations / seconds) * 10) / 10} operations a second`,
  );
  const rows: [string, string | number][] = [];
  const flatten = (prefix: string, value: unknown) => {
    if (value && typeof value === 'object' && !Array.isArray(value))
      for (const [key, inner] of Object.entries(value)) flatten(prefix ? `${prefix}.${key}` : key, inner);
    else rows.push([prefix, Array.isArray(value) ? value.length : (value as string | number)]);
  };
  flatten('', report);
  if (report.mismatches.length > 0 || report.moneyLostOrCreatedCents !== 0)
    throw new Error(`simulation seed ${seed} went wrong: ${report.mismatches.join('; ')}`);
  return {
    name: 'simulation',
    title: `Deterministic simulation with faults (seed ${seed}): the run's own report, the same for every run of the seed`,
    columns: ['measure', 'value'],
    rows,
    data: { ...report, realSeconds: seconds },
  };
};
