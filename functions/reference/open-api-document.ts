import { documentHandler } from '#shared/http/document-handler.ts';
import { publicBaseUrl } from '#shared/http/public-base-url.ts';
import { servedDocument } from '#shared/reference/served-document.ts';

export const handler = documentHandler('openApiDocument', async (event) => ({
  statusCode: 200,
  headers: {
    'content-type': 'application/json; charset=utf-8',
    'access-control-allow-origin': '*',
    'cache-control': 'public, max-age=300',
  },
  body: JSON.stringify(servedDocument(publicBaseUrl(event), process.env.SANDBOX === 'true')),
}));
