import { execFile } from 'node:child_process';
import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { esbuildOptions } from '#infra/bundling.ts';

// A function's stack traces name the TypeScript (file, line, column, function) although the bundle
// is minified and Node runs without `--enable-source-maps`; and the map is read only when a trace is
// formatted, not while the bundle loads. Bundled with the stack's own options (infra/bundling.ts).

let dir: string;
let bundle: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'stack-traces-'));
  await writeFile(
    path.join(dir, 'payout.ts'),
    [
      'export function startPayout(amount: number): number {',
      "  throw new Error('refused: ' + amount);",
      '}',
      '',
    ].join('\n'),
  );
  await writeFile(
    path.join(dir, 'entry.ts'),
    [
      "import { startPayout } from './payout.ts';",
      '',
      'export const handler = async (event: { amount: number }) => startPayout(event.amount);',
      '',
    ].join('\n'),
  );
  bundle = path.join(dir, 'out', 'index.mjs');
  await build(esbuildOptions(path.join(dir, 'entry.ts'), bundle));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/**
 * Imports the bundle in a fresh Node (no NODE_OPTIONS), runs `between` in this process once the
 * import is done (through a marker on stdout and a line on stdin), then invokes the handler and
 * prints the stack of what it threw.
 */
async function stackOfFailingInvocation(between: () => Promise<void> = async () => {}): Promise<string> {
  const script = `
    const { handler } = await import(process.argv[1]);
    process.stdout.write('imported\\n');
    await new Promise((resolve) => process.stdin.once('data', resolve));
    try { await handler({ amount: 1250 }); } catch (error) { process.stdout.write(error.stack); }
    process.exit(0);
  `;
  const child = execFile(process.execPath, ['--input-type=module', '--eval', script, bundle], {
    env: { PATH: process.env.PATH },
  });
  let output = '';
  const imported = new Promise<void>((resolve) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('imported\n')) resolve();
    });
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  await imported;
  await between();
  child.stdin?.write('go\n');
  expect(await exited).toBe(0);
  return output.slice(output.indexOf('imported\n') + 'imported\n'.length);
}

describe('stack traces of a bundled function', () => {
  it('name the TypeScript file, line and function without --enable-source-maps', async () => {
    const stack = await stackOfFailingInvocation();
    const lines = stack.split('\n');
    expect(lines[0]).toBe('Error: refused: 1250');
    // The throw is line 2, column 9 of payout.ts; the call is line 3 of entry.ts.
    expect(lines[1]).toBe('    at startPayout (payout.ts:2:9)');
    expect(lines[2]).toMatch(/^ {4}at .+ \(entry\.ts:3:\d+\)$/);
  });

  it('read the map when a trace is first formatted, not when the bundle loads', async () => {
    const map = `${bundle}.map`;
    const away = `${bundle}.map.away`;
    await rename(map, away);
    try {
      // No map while the bundle loads; it is back before anything is thrown.
      const stack = await stackOfFailingInvocation(() => rename(away, map));
      expect(stack.split('\n')[1]).toBe('    at startPayout (payout.ts:2:9)');
    } finally {
      await rename(away, map).catch(() => {});
    }
  });

  it('keep the bundle positions when there is no map', async () => {
    const away = `${bundle}.map.away`;
    await rename(`${bundle}.map`, away);
    try {
      const stack = await stackOfFailingInvocation();
      expect(stack.split('\n')[0]).toBe('Error: refused: 1250');
      expect(stack.split('\n')[1]).toMatch(/index\.mjs:\d+:\d+\)$/);
    } finally {
      await rename(away, `${bundle}.map`);
    }
  });
});
