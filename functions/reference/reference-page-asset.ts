import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { referenceAsset } from '#shared/reference/page.ts';

export const handler = async (event: APIGatewayProxyEvent): Promise<APIGatewayProxyResult> =>
  referenceAsset(event.pathParameters?.file);
