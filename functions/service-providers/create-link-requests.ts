import { serviceProviderEndpoints } from '#shared/api/service-providers.ts';
import { apiHandler } from '#shared/http/api-handler.ts';
import { createLinkRequests } from '#shared/operations/link-requests.ts';

export const handler = apiHandler(serviceProviderEndpoints.createLinkRequests, ({ caller, body, baseUrl }) =>
  createLinkRequests(caller, body.phone, baseUrl),
);
