import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { publicBaseUrl } from '#shared/http/public-base-url.ts';
import { servedDocument } from '#shared/reference/served-document.ts';

/** Public and keyless, so it is a plain handler: no authentication, nothing to validate. */
export const handler = async (event: APIGatewayProxyEvent): Promise<APIGatewayProxyResult> => ({
  statusCode: 200,
  headers: {
    'content-type': 'application/json; charset=utf-8',
    'access-control-allow-origin': '*',
    'cache-control': 'public, max-age=300',
  },
  body: JSON.stringify(servedDocument(publicBaseUrl(event), process.env.SANDBOX === 'true')),
});
