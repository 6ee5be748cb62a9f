import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '#infra/paths.ts';
import {
  buildOpenApiDocument,
  type OpenApiAudience,
  openApiDocumentPaths,
  serializeOpenApiDocument,
} from '#shared/openapi/document.ts';

/**
 * `npm run openapi`: writes the reference from the endpoints' declarations and their schemas: the
 * integrators' document (served, and the typed client's source) and the dashboard's internal one.
 */
for (const [audience, path] of Object.entries(openApiDocumentPaths) as [OpenApiAudience, string][]) {
  writeFileSync(join(projectRoot, path), serializeOpenApiDocument(buildOpenApiDocument(audience)));
  console.log(`wrote ${path}`);
}
