import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { capacity } from '#test/bench/capacity.ts';
import { benchDir, coldStart } from '#test/bench/cold-start.ts';
import { localHost } from '#test/bench/local-host.ts';
import { type Bench, formatTable } from '#test/bench/report.ts';

/** Every benchmark of `npm run bench`, run one after the other so they do not compete for CPU. */
export const benches: Bench[] = [coldStart, capacity, localHost];

const reports = [];
for (const bench of benches) {
  const report = await bench();
  console.log(`${formatTable(report)}\n`);
  reports.push(report);
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
