import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '#infra/paths.ts';
import {
  buildOpenApiDocument,
  openApiDocumentPath,
  serializeOpenApiDocument,
} from '#shared/openapi/document.ts';

/** `npm run openapi`: writes the reference from the endpoints' declarations and their schemas. */
writeFileSync(join(projectRoot, openApiDocumentPath), serializeOpenApiDocument(buildOpenApiDocument()));
console.log(`wrote ${openApiDocumentPath}`);
