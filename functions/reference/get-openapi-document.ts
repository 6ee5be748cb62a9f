import { apiHandler } from '#shared/http/api-handler.ts';
import { servedDocument } from '#shared/reference/served-document.ts';
import { routes } from '#shared/routes.ts';

export const handler = apiHandler(routes.openApiDocument, {}, async ({ baseUrl }) =>
  servedDocument(baseUrl, process.env.SANDBOX === 'true'),
);
