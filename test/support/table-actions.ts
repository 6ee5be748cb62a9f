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

/** The table actions an unminified bundle's own code uses, in the catalogue's order. */
export function tableActionsIn(bundle: string): TableAction[] {
  const code = ownCode(bundle);
  const found = new Set(usedBy.filter(([pattern]) => pattern.test(code)).map(([, action]) => action));
  return tableActions.filter((action) => found.has(action));
}
