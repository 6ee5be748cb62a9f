import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import type { DocumentEndpointName } from '#shared/api/all-endpoints.ts';

/**
 * A document served as is: public and keyless, so a plain handler, with no authentication and
 * nothing to validate. It names its endpoint rather than importing the declaration, whose schemas
 * serve the reference alone: the function's bundle stays free of them.
 */
export const documentHandler = (
  endpoint: DocumentEndpointName,
  serve: (event: APIGatewayProxyEvent) => Promise<APIGatewayProxyResult>,
) => Object.assign(serve, { endpointName: endpoint });
