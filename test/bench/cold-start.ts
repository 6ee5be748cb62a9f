import { execFile } from 'node:child_process';
import { mkdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { bundleFileName, esbuildOptions, nodeOptions } from '#infra/bundling.ts';
import { projectRoot } from '#infra/paths.ts';
import { routeEntries } from '#shared/routes.ts';
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
  NODE_OPTIONS: nodeOptions,
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

export interface ColdStartResult {
  readonly route: string;
  readonly handler: string;
  readonly bundleBytes: number;
  readonly medianImportMs: number;
  readonly importMs: number[];
}

/**
 * Cold start of every route's function: bundled exactly as the stack bundles it (the options come
 * from infra/bundling.ts), then imported in a fresh Node process `runs` times.
 */
export async function coldStart(): Promise<BenchReport> {
  const outDir = path.join(benchDir, 'cold-start');
  await rm(outDir, { recursive: true, force: true });
  await mkdir(outDir, { recursive: true });

  const results: ColdStartResult[] = [];
  for (const [routeName, route] of routeEntries) {
    const bundle = path.join(outDir, routeName, bundleFileName);
    await build(esbuildOptions(path.join(projectRoot, route.handler), bundle));
    const { size } = await stat(bundle);
    // One discarded run, so every measured run reads the bundle from the page cache alike.
    await coldImportMs(bundle);
    const importMs: number[] = [];
    for (let i = 0; i < runs; i++) importMs.push(await coldImportMs(bundle));
    results.push({
      route: routeName,
      handler: route.handler,
      bundleBytes: size,
      medianImportMs: median(importMs),
      importMs,
    });
  }

  return {
    name: 'coldStart',
    title: `Cold start per function (Node ${process.version}, median of ${runs} fresh processes)`,
    columns: ['function', 'bundle (bytes, minified)', 'cold import (ms)', 'min', 'max'],
    rows: results.map((result) => [
      result.route,
      result.bundleBytes,
      result.medianImportMs,
      Math.min(...result.importMs),
      Math.max(...result.importMs),
    ]),
    data: { runs, results },
  };
}
