import '#test/bench/metrics-off.ts';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { stopBenchDynamoDb } from '#test/bench/bench-dynamodb.ts';
import { capacity, capacityBill } from '#test/bench/capacity.ts';
import { capacityWhere } from '#test/bench/capacity-where.ts';
import { benchDir, coldStart } from '#test/bench/cold-start.ts';
import { capacityCreationRate } from '#test/bench/creation-rate.ts';
import { dashboardHome } from '#test/bench/dashboard-home.ts';
import { hotStore } from '#test/bench/hot-store.ts';
import { load } from '#test/bench/load.ts';
import { localHost } from '#test/bench/local-host.ts';
import { type Bench, formatTable } from '#test/bench/report.ts';
import { simulation } from '#test/bench/simulation.ts';
import { soundbox } from '#test/bench/soundbox.ts';
import { transactionExport } from '#test/bench/transaction-export.ts';
import { transactionList } from '#test/bench/transaction-list.ts';
import { webhooks } from '#test/bench/webhooks.ts';

/** Every benchmark of `npm run bench`, run one after the other so they do not compete for CPU. */
export const benches: Bench[] = [
  coldStart,
  capacity,
  capacityBill,
  capacityWhere,
  capacityCreationRate,
  hotStore,
  transactionList,
  transactionExport,
  dashboardHome,
  localHost,
  webhooks,
  soundbox,
  simulation,
  load,
];

const reports = [];
// A first argument runs only the benches whose result name contains it: `npm run bench -- transaction`.
const only = process.argv[2];
try {
  for (const bench of benches) {
    if (only && !bench.name.toLowerCase().includes(only.toLowerCase())) continue;
    const report = await bench();
    console.log(`${formatTable(report)}\n`);
    reports.push(report);
  }
} catch (error) {
  // Printed before the table stops: what still runs in the background then fails on the closed
  // table, and its error would be the only one seen.
  console.error(error);
  throw error;
} finally {
  await stopBenchDynamoDb();
}

await mkdir(benchDir, { recursive: true });
const resultsFile = path.join(benchDir, 'results.json');
await writeFile(
  resultsFile,
  `${JSON.stringify(
    {
      measuredAt: new Date().toISOString(),
      node: process.version,
      platform: `${process.platform}-${process.arch}`,
      results: Object.fromEntries(reports.map((report) => [report.name, report.data])),
    },
    null,
    2,
  )}\n`,
);
console.log(`Results written to ${path.relative(process.cwd(), resultsFile)}`);
