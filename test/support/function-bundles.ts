import path from 'node:path';
import { build, type Metafile } from 'esbuild';
import { esbuildOptions } from '#infra/bundling.ts';
import { projectRoot } from '#infra/paths.ts';

export interface FunctionBundle {
  /** Every module the bundle holds (project paths and `node_modules/...`). */
  inputs: string[];
  /** The bundle's code, unminified: esbuild marks each module with a `// <path>` line. */
  code: string;
}

/**
 * What each entry file (relative to the project root) is bundled into, with the stack's options
 * (infra/bundling.ts) but unminified and kept in memory. One build of every entry: esbuild shares
 * the parsing, and the build of ~150 entries is the dearest step of the infra tests that read it.
 */
export async function bundleEntries(entries: readonly string[]): Promise<Map<string, FunctionBundle>> {
  const { entryPoints: _entry, outfile: _outfile, ...options } = esbuildOptions('', '');
  const outdir = path.join(projectRoot, '.bench', 'function-bundles');
  const { outputFiles, metafile } = await build({
    ...options,
    entryPoints: entries.map((entry) => ({
      in: path.join(projectRoot, entry),
      out: entry.replace(/\.ts$/, ''),
    })),
    outdir,
    write: false,
    metafile: true,
    minify: false,
    sourcemap: false,
  });
  const inputsOf = new Map(
    Object.entries(metafile.outputs as Metafile['outputs'])
      .filter(([, output]) => output.entryPoint)
      .map(([file, output]) => [output.entryPoint as string, { file, inputs: Object.keys(output.inputs) }]),
  );
  const bundles = new Map<string, FunctionBundle>();
  for (const entry of entries) {
    const found = inputsOf.get(entry);
    const output = found && outputFiles.find((file) => file.path === path.join(projectRoot, found.file));
    if (found && output) bundles.set(entry, { inputs: found.inputs, code: output.text });
  }
  return bundles;
}
