import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { publicBaseUrl } from '#shared/http/public-base-url.ts';
import { referencePage } from '#shared/reference/page.ts';

export const handler = async (event: APIGatewayProxyEvent): Promise<APIGatewayProxyResult> =>
  referencePage(publicBaseUrl(event));
