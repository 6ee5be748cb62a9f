import type { APIGatewayProxyEvent, Context } from 'aws-lambda';

/** An API Gateway REST proxy event for unit tests of handlers: a bare GET unless told otherwise. */
export function proxyEvent(overrides: Partial<APIGatewayProxyEvent> = {}): APIGatewayProxyEvent {
  return {
    httpMethod: 'GET',
    path: '/',
    resource: '/',
    headers: {},
    multiValueHeaders: {},
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: null,
    stageVariables: null,
    body: null,
    isBase64Encoded: false,
    requestContext: { requestId: 'req-1' } as APIGatewayProxyEvent['requestContext'],
    ...overrides,
  };
}

export const testLambdaContext = { awsRequestId: 'aws-1', getRemainingTimeInMillis: () => 1000 } as Context;
