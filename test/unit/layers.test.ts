import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '#infra/paths.ts';

/**
 * The layer rule (README, "Layers"), read off the import graph of the sources: domain and errors
 * import nothing above them, operations take and return domain and data types (the entry files map
 * them to and from the wire), the audit is an offline tool nothing at runtime imports, and the two
 * entry files whose reach was cut stay cut.
 */

interface Import {
  target: string;
  typeOnly: boolean;
}

const aliases: Record<string, string> = {
  '#shared/': 'shared/',
  '#infra/': 'infra/',
  '#functions/': 'functions/',
  '#test/': 'test/',
};

/** A project file an import names, relative to the root; packages and node: modules are none. */
function resolveImport(from: string, specifier: string): string | undefined {
  for (const [alias, directory] of Object.entries(aliases))
    if (specifier.startsWith(alias)) return directory + specifier.slice(alias.length);
  if (specifier.startsWith('.')) return path.join(path.dirname(from), specifier);
  return undefined;
}

const staticImport = /^\s*(import|export)\s+(type\s+)?(?:[^'";]*?\sfrom\s+)?'([^']+)'/gm;
const dynamicImport = /\bimport\(\s*'([^']+)'\s*\)/g;

const importsCache = new Map<string, Import[]>();

/** The project files a file imports (statically, `export … from`, or by `import()`). */
function importsOf(file: string): Import[] {
  const cached = importsCache.get(file);
  if (cached) return cached;
  const source = readFileSync(path.join(projectRoot, file), 'utf8');
  const found: Import[] = [];
  for (const [, , type, specifier] of source.matchAll(staticImport)) {
    const target = resolveImport(file, specifier as string);
    if (target) found.push({ target, typeOnly: type !== undefined });
  }
  for (const [, specifier] of source.matchAll(dynamicImport)) {
    const target = resolveImport(file, specifier as string);
    if (target) found.push({ target, typeOnly: false });
  }
  importsCache.set(file, found);
  return found;
}

/** Every project file an entry reaches through its imports, type-only ones included. */
function reachOf(entry: string): Set<string> {
  const reached = new Set<string>();
  const pending = [entry];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (reached.has(file)) continue;
    if (!existsSync(path.join(projectRoot, file))) throw new Error(`${file} is imported but missing`);
    reached.add(file);
    pending.push(...importsOf(file).map((imported) => imported.target));
  }
  return reached;
}

const sourcesUnder = (directory: string): string[] =>
  readdirSync(path.join(projectRoot, directory), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => path.relative(projectRoot, path.join(entry.parentPath, entry.name)));

const shared = sourcesUnder('shared');

/** `file imports target` for every import of `files` that `refused` says is out of place. */
function offending(files: string[], refused: (target: string, imported: Import) => boolean): string[] {
  return files.flatMap((file) =>
    importsOf(file)
      .filter((imported) => refused(imported.target, imported))
      .map((imported) => `${file} imports ${imported.target}`),
  );
}

const under = (directory: string) => (file: string) => file.startsWith(`${directory}/`);

/**
 * Operations that still take a request body's type or build an answer's shape from shared/api
 * (known, to move to their entry files): the list may only shrink.
 */
const operationsStillOnTheWire = [
  'shared/operations/contacts.ts',
  'shared/operations/messages.ts',
  'shared/operations/payment-links.ts',
  'shared/operations/payment-requests.ts',
  'shared/operations/service-providers.ts',
  'shared/operations/transactions.ts',
  'shared/operations/transfers.ts',
  'shared/operations/webhook-deliveries.ts',
  'shared/operations/webhook-subscriptions.ts',
];

describe('the layers of shared/', () => {
  it('are read from enough of the sources to mean something', () => {
    expect(shared.filter(under('shared/operations')).length).toBeGreaterThan(20);
    expect(shared.filter(under('shared/errors')).length).toBeGreaterThan(5);
  });

  it('domain imports nothing but domain and errors', () => {
    const domain = shared.filter(under('shared/domain'));
    expect(offending(domain, (target) => !/^shared\/(domain|errors)\//.test(target))).toEqual([]);
  });

  it('errors import nothing but errors, and domain types', () => {
    const errors = shared.filter(under('shared/errors'));
    const refused = (target: string, imported: Import) =>
      !target.startsWith('shared/errors/') && !(target.startsWith('shared/domain/') && imported.typeOnly);
    expect(offending(errors, refused)).toEqual([]);
  });

  it('operations import nothing from http/, and from api/ only where known', () => {
    const operations = shared.filter(under('shared/operations'));
    expect(offending(operations, under('shared/http'))).toEqual([]);
    const onTheWire = [
      ...new Set(offending(operations, under('shared/api')).map((line) => line.split(' ')[0])),
    ];
    // A new one is a regression; one that no longer imports api/ leaves the list.
    expect(onTheWire.sort()).toEqual(operationsStillOnTheWire);
  });

  it('nothing under shared/ but the audit imports the audit', () => {
    const outside = shared.filter((file) => !under('shared/audit')(file));
    expect(offending(outside, under('shared/audit'))).toEqual([]);
  });
});

describe('the reach of an entry file', () => {
  it('creating a payment request reaches no transfer, payout or escrow settlement code', () => {
    const reach = [...reachOf('functions/payment-requests/create-payment-request.ts')];
    expect(reach).toContain('shared/operations/payment-requests.ts');
    // The errors' ids are one union, so every file of shared/errors/ is in any reach: they define
    // classes, not payout code.
    const payoutCode =
      /^(?!shared\/errors\/).*(transfer|payout)|^shared\/settlement\/|^shared\/operations\/escrows\.ts$/;
    expect(reach.filter((file) => payoutCode.test(file))).toEqual([]);
  });

  it('the stream consumer reaches the event builders, not the settlement that makes the changes', () => {
    const reach = [...reachOf('functions/workers/dispatch-table-changes.ts')];
    expect(reach).toContain('shared/events/payment-events.ts');
    expect(reach).toContain('shared/events/payout-events.ts');
    expect(reach.filter((file) => file.startsWith('shared/settlement/'))).toEqual([]);
  });
});
