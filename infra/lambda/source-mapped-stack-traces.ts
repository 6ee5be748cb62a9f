import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';

// Injected into every bundle (infra/bundling.ts `inject`), and only there: under tsx and vitest the
// sources are run as they are and Node's own source maps must stay in charge.
//
// Node's `--enable-source-maps` reads and decodes the bundle's whole map (~0.75 MB) while the bundle
// loads, on every cold start, whether or not anything is ever thrown: ~10 ms of a 60–90 ms import.
// Here the map is read the first time a stack trace is formatted (an error logged), and stack traces
// still name the TypeScript file, line and column. Node calls `Error.prepareStackTrace` when it is
// set, as it does for its own source maps.

const bundleUrl = import.meta.url;

/** `undefined`: not read yet; `null`: no map beside the bundle (or unreadable), traces stay as they are. */
let sourceMap: SourceMap | null | undefined;

function readSourceMap(): SourceMap | null {
  try {
    return new SourceMap(JSON.parse(readFileSync(`${fileURLToPath(bundleUrl)}.map`, 'utf8')));
  } catch {
    return null;
  }
}

/**
 * The map's sources are relative to the directory esbuild wrote the bundle into (`../../shared/x.ts`);
 * what follows the climb is the path in the project (or `node_modules/...`).
 */
const projectPath = (source: string) => source.replace(/^(?:\.\.\/)+/, '');

const inBundle = (site: NodeJS.CallSite) => site.getFileName() === bundleUrl;

/** What Node's `findEntry` answers; its type leaves out the identifier's `name`, which it gives. */
type Entry = { originalSource: string; originalLine: number; originalColumn: number; name?: string };

function entryOf(site: NodeJS.CallSite, map: SourceMap): Entry | undefined {
  // 1-based in a stack trace, 0-based in the map.
  const entry = map.findEntry((site.getLineNumber() ?? 0) - 1, (site.getColumnNumber() ?? 0) - 1);
  return 'originalSource' in entry ? (entry as Entry) : undefined;
}

/**
 * A frame of the bundle as the TypeScript has it. The function's own name is minified; its name in
 * the sources is the identifier its caller called it by (the caller's frame, when in the bundle), as
 * Node finds it for its own source maps.
 */
function mapCallSite(site: NodeJS.CallSite, caller: NodeJS.CallSite | undefined, map: SourceMap): string {
  const entry = inBundle(site) ? entryOf(site, map) : undefined;
  if (!entry) return String(site);
  const callerEntry = caller && inBundle(caller) ? entryOf(caller, map) : undefined;
  const name = callerEntry?.name ?? site.getFunctionName() ?? '<anonymous>';
  const position = `${projectPath(entry.originalSource)}:${entry.originalLine + 1}:${entry.originalColumn + 1}`;
  return `${site.isAsync() ? 'async ' : ''}${site.isConstructor() ? 'new ' : ''}${name} (${position})`;
}

function heading(error: unknown): string {
  try {
    return Error.prototype.toString.call(error);
  } catch {
    return 'Error';
  }
}

Error.prepareStackTrace = (error, sites) => {
  if (sourceMap === undefined) sourceMap = readSourceMap();
  const map = sourceMap;
  const frames = sites.map(
    (site, i) => `\n    at ${map ? mapCallSite(site, sites[i + 1], map) : String(site)}`,
  );
  return heading(error) + frames.join('');
};
