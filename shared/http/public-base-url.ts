import type { APIGatewayProxyEvent } from 'aws-lambda';

/**
 * PUBLIC_BASE_URL when the stage has its own domain (and on the local host); otherwise the
 * address API Gateway was reached at, stage included.
 */
export function publicBaseUrl(event: APIGatewayProxyEvent): string {
  const configured = process.env.PUBLIC_BASE_URL;
  if (configured) return configured.replace(/\/$/, '');
  const { domainName, stage } = event.requestContext ?? {};
  return `https://${domainName ?? event.headers?.Host ?? 'localhost'}/${stage ?? ''}`.replace(/\/$/, '');
}
