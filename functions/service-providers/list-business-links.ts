import { serviceProviderEndpoints } from '#shared/api/service-providers.ts';
import { apiHandler } from '#shared/http/api-handler.ts';
import { listBusinessLinks } from '#shared/operations/service-providers.ts';

export const handler = apiHandler(serviceProviderEndpoints.listBusinessLinks, ({ caller }) =>
  listBusinessLinks(caller),
);
