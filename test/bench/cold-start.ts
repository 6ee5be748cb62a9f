import { execFile } from 'node:child_process';
import { mkdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { bundleFileName, esbuildOptions } from '#infra/bundling.ts';
import { projectRoot } from '#infra/paths.ts';
import { functionEntries } from '#shared/catalogue/all-functions.ts';
import type { BenchReport } from '#test/bench/report.ts';

const run = promisify(execFile);

export const benchDir = path.join(projectRoot, '.bench');

/** Odd, so the median is one measured run. */
const runs = 7;

/**
 * What Lambda gives a function, minus real credentials: the SDK clients are built at import time
 * and must find a region and credentials, but nothing is called.
 */
const functionEnvironment = {
  TABLE_NAME: 'bench',
  AWS_REGION: 'eu-west-1',
  AWS_ACCESS_KEY_ID: 'bench',
  AWS_SECRET_ACCESS_KEY: 'bench',
  POWERTOOLS_SERVICE_NAME: 'bench',
};

// Times the import alone, not Node's own start-up, which no bundle choice changes.
const importTimer = `
const start = performance.now();
await import(process.env.BENCH_MODULE_URL);
process.stdout.write(String(performance.now() - start));
`;

async function coldImportMs(bundle: string): Promise<number> {
  const { stdout } = await run(process.execPath, ['--input-type=module', '--eval', importTimer], {
    // Only these variables: a developer's AWS_PROFILE or endpoint overrides must not change the result.
    env: { ...functionEnvironment, BENCH_MODULE_URL: pathToFileURL(bundle).href },
  });
  return Number(stdout);
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

/** The packages that weigh most in a bundle, from esbuild's metafile: where to look to cut. */
function heaviestPackages(inputs: Record<string, { bytesInOutput: number }>, count: number): string[] {
  const byPackage = new Map<string, number>();
  for (const [file, { bytesInOutput }] of Object.entries(inputs)) {
    const name = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file)?.[1] ?? '(service code)';
    byPackage.set(name, (byPackage.get(name) ?? 0) + bytesInOutput);
  }
  return [...byPackage]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, bytes]) => `${name} ${Math.round(bytes / 1000)}k`);
}

/** The targets every bundle is held to. */
export const coldStartTargets = { maxBundleBytes: 300_000, maxImportMs: 40 } as const;

export interface ColdStartResult {
  readonly route: string;
  readonly handler: string;
  readonly bundleBytes: number;
  readonly heaviest: string[];
  readonly medianImportMs: number;
  readonly importMs: number[];
}

/**
 * Cold start of every function of the stack: bundled exactly as the stack bundles it (the options come
 * from infra/bundling.ts), then imported in a fresh Node process `runs` times.
 */
export async function coldStart(): Promise<BenchReport> {
  const outDir = path.join(benchDir, 'cold-start');
  await rm(outDir, { recursive: true, force: true });
  await mkdir(outDir, { recursive: true });

  const results: ColdStartResult[] = [];
  for (const [routeName, route] of functionEntries) {
    const bundle = path.join(outDir, routeName, bundleFileName);
    const { metafile } = await build({
      ...esbuildOptions(path.join(projectRoot, route.entry), bundle),
      metafile: true,
    });
    const output = Object.values(metafile.outputs).find((candidate) => candidate.entryPoint);
    const { size } = await stat(bundle);
    // One discarded run, so every measured run reads the bundle from the page cache alike.
    await coldImportMs(bundle);
    const importMs: number[] = [];
    for (let i = 0; i < runs; i++) importMs.push(await coldImportMs(bundle));
    results.push({
      route: routeName,
      handler: route.entry,
      bundleBytes: size,
      heaviest: heaviestPackages(output?.inputs ?? {}, 3),
      medianImportMs: median(importMs),
      importMs,
    });
  }

  return {
    name: 'coldStart',
    title: `Cold start per function (Node ${process.version}, median of ${runs} fresh processes)`,
    columns: ['function', 'bundle (bytes, minified)', 'cold import (ms)', 'min', 'max', 'heaviest packages'],
    rows: results.map((result) => [
      result.route,
      result.bundleBytes,
      result.medianImportMs,
      Math.min(...result.importMs),
      Math.max(...result.importMs),
      result.heaviest.join(', '),
    ]),
    data: { runs, targets: coldStartTargets, results },
  };
}
