import path from 'node:path';
import { build } from 'esbuild';
import { esbuildOptions } from '#infra/bundling.ts';
import { projectRoot } from '#infra/paths.ts';
import { type TableAction, tableActions } from '#shared/catalogue/access.ts';

/**
 * The DynamoDB actions each function's own code can reach, read from its bundle as the stack
 * builds it (infra/bundling.ts), tree-shaken, so a module imported for one helper does not count
 * for the rest of its file. Only the project's modules are read (esbuild marks each with a
 * `// <path>` line when not minifying): the SDK's own code names every command and transaction
 * item kind, used or not.
 *
 * A command is a lib-dynamodb command constructed (`new GetCommand(`); a transaction's items are
 * the kinds its object literals name (`Put: {`, `Update: {`, `Delete: {`, `ConditionCheck: {`),
 * which IAM authorizes one by one (PutItem, UpdateItem, DeleteItem, ConditionCheckItem).
 */
const usedBy: [RegExp, TableAction][] = [
  [/\bnew GetCommand\d*\(/, 'GetItem'],
  [/\bnew TransactGetCommand\d*\(/, 'GetItem'],
  [/\bnew QueryCommand\d*\(/, 'Query'],
  [/\bnew BatchGetCommand\d*\(/, 'BatchGetItem'],
  [/\bnew PutCommand\d*\(/, 'PutItem'],
  [/\bPut:\s*\{/, 'PutItem'],
  [/\bnew UpdateCommand\d*\(/, 'UpdateItem'],
  [/\bUpdate:\s*\{/, 'UpdateItem'],
  [/\bnew DeleteCommand\d*\(/, 'DeleteItem'],
  [/\bDelete:\s*\{/, 'DeleteItem'],
  [/\bConditionCheck:\s*\{/, 'ConditionCheckItem'],
  [/\bnew BatchWriteCommand\d*\(/, 'BatchWriteItem'],
  [/\bnew ScanCommand\d*\(/, 'Scan'],
];

/** The project's own modules of an unminified bundle, without those of node_modules. */
const ownCode = (bundle: string) =>
  bundle
    .split(/^(?=\/\/ \S+\.[mc]?[jt]s$)/m)
    .filter((module) => /^\/\/ (functions|shared|infra)\//.test(module))
    .join('\n');

/** Entry file (relative to the project root) → the table actions its bundle's own code uses. */
export async function tableActionsUsedBy(entries: readonly string[]): Promise<Map<string, TableAction[]>> {
  const { entryPoints: _entry, outfile: _outfile, ...options } = esbuildOptions('', '');
  const outdir = path.join(projectRoot, '.bench', 'table-actions');
  // One build of every entry (esbuild shares the parsing), unminified, kept in memory.
  const { outputFiles } = await build({
    ...options,
    entryPoints: entries.map((entry) => ({
      in: path.join(projectRoot, entry),
      out: entry.replace(/\.ts$/, ''),
    })),
    outdir,
    write: false,
    minify: false,
    sourcemap: false,
  });
  const used = new Map<string, TableAction[]>();
  for (const output of outputFiles) {
    const entry = path.relative(outdir, output.path).replace(/\.js$/, '.ts');
    if (!entries.includes(entry)) continue;
    const code = ownCode(output.text);
    const found = new Set(usedBy.filter(([pattern]) => pattern.test(code)).map(([, action]) => action));
    used.set(
      entry,
      tableActions.filter((action) => found.has(action)),
    );
  }
  return used;
}
