import document from '#shared/openapi/openapi.json' with { type: 'json' };

type Operation = Record<string, unknown> & { 'x-sandbox-only'?: boolean };
type OpenApiDocument = typeof document & { paths: Record<string, Record<string, Operation>> };

/**
 * The committed reference as a host serves it: `servers` names the host itself, so "try it" and
 * generated clients call the stage that served the document; a stage without the sandbox leaves out
 * the sandbox's operations, which it does not have.
 */
export function servedDocument(baseUrl: string, sandbox: boolean): unknown {
  const source = document as OpenApiDocument;
  const paths: Record<string, Record<string, Operation>> = {};
  for (const [path, item] of Object.entries(source.paths)) {
    const kept = Object.fromEntries(
      Object.entries(item).filter(([, operation]) => sandbox || operation['x-sandbox-only'] !== true),
    );
    if (Object.keys(kept).length > 0) paths[path] = kept;
  }
  return { ...source, servers: [{ url: baseUrl }], paths };
}
