import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import type { DocumentEndpoint } from '#shared/api/endpoint.ts';

/**
 * A document served as is: public and keyless, so a plain handler, with no authentication and
 * nothing to validate. The endpoint is kept on it so a test can check each entry serves its own.
 */
export const documentHandler = (
  endpoint: DocumentEndpoint,
  serve: (event: APIGatewayProxyEvent) => Promise<APIGatewayProxyResult>,
) => Object.assign(serve, { endpoint });
