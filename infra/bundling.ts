import path from 'node:path';
import { type BundlingOptions, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { BuildOptions } from 'esbuild';
import { projectRoot } from '#infra/paths.ts';

/**
 * How every function is bundled, declared once. The stack (through `ServiceFunction`) and the cold-start
 * benchmark both derive their esbuild options from this object, so the numbers the benchmark
 * reports are those of the code that is deployed.
 */
export const bundling = {
  /** Must match the Lambda runtime (`nodejs22.x`) so esbuild leaves native syntax alone. */
  target: 'node22',
  /** ESM lets esbuild tree-shake the AWS SDK's ES builds; the file is written as `.mjs`. */
  format: 'esm',
  /** Prefer packages' ES builds over their CommonJS ones, for tree-shaking. */
  mainFields: ['module', 'main'],
  minify: true,
  sourceMap: true,
  /**
   * Mappings only, without a copy of every source file: stack traces still point at the
   * TypeScript file and line, and the map is ~0.75 MB instead of ~2.2 MB.
   */
  sourcesContent: false,
  /**
   * Maps stack traces back to the TypeScript when one is first formatted, instead of Node's
   * `--enable-source-maps`, which reads and decodes the whole map while the bundle loads (~10 ms of
   * every cold start). The file says how; `package.json` lists it as the one module with side effects.
   */
  inject: [path.join(projectRoot, 'infra/lambda/source-mapped-stack-traces.ts')],
  /**
   * Some dependencies still call `require` for Node built-ins; an ES module has no `require`, so
   * the bundle gets one. The import is aliased so it cannot collide with a bundled name.
   */
  banner:
    "import { createRequire as __bundleCreateRequire } from 'node:module'; const require = __bundleCreateRequire(import.meta.url);",
  /**
   * Nothing is left to the runtime, the AWS SDK included: the runtime's copy is a full CommonJS
   * build that Node must load whole, while a bundled, tree-shaken copy cut cold import from ~105 ms
   * to ~63 ms. It also pins the SDK version to the lock file instead of whatever Lambda ships.
   */
  externalModules: [] as string[],
  /**
   * Modules replaced in the bundles by lighter ones that do all a Lambda function needs of them
   * (each file says why). Found with the cold-start bench's per-package breakdown (the metafile).
   */
  alias: {
    '@aws-sdk/credential-provider-node': path.join(projectRoot, 'infra/lambda/credentials.ts'),
    '@smithy/core/event-streams': path.join(projectRoot, 'infra/lambda/no-event-streams.ts'),
    // A directory: its `functions` file stands for the package's `/functions` entry.
    '@aws-lambda-powertools/jmespath': path.join(projectRoot, 'infra/lambda/jmespath'),
    'mnemonist/lru-cache': path.join(projectRoot, 'infra/lambda/lru-cache.ts'),
  } as Record<string, string>,
} as const;

/** File name esbuild writes, the same one NodejsFunction gives its asset. */
export const bundleFileName = 'index.mjs';

/** The options for `NodejsFunction`. Docker is never used: esbuild is a dev dependency. */
export function nodejsFunctionBundling(): BundlingOptions {
  return {
    format: OutputFormat.ESM,
    target: bundling.target,
    mainFields: [...bundling.mainFields],
    minify: bundling.minify,
    sourceMap: bundling.sourceMap,
    sourcesContent: bundling.sourcesContent,
    banner: bundling.banner,
    inject: [...bundling.inject],
    externalModules: [...bundling.externalModules],
    esbuildArgs: Object.fromEntries(
      Object.entries(bundling.alias).map(([module, replacement]) => [`--alias:${module}`, replacement]),
    ),
    forceDockerBundling: false,
  };
}

/**
 * The same options for esbuild's own API, as NodejsFunction passes them to the esbuild CLI
 * (`--bundle --platform=node --format=esm --outfile=index.mjs --sourcemap ...`).
 */
export function esbuildOptions(entry: string, outfile: string): BuildOptions {
  return {
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: bundling.format,
    target: bundling.target,
    mainFields: [...bundling.mainFields],
    minify: bundling.minify,
    sourcemap: bundling.sourceMap,
    sourcesContent: bundling.sourcesContent,
    banner: { js: bundling.banner },
    inject: [...bundling.inject],
    external: [...bundling.externalModules],
    alias: { ...bundling.alias },
    logLevel: 'warning',
  };
}
