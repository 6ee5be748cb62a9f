import { apiHandler } from '#shared/http/api-handler.ts';
import { listBusinessLinks } from '#shared/operations/service-providers.ts';
import { serviceProviderRoutes } from '#shared/routes.ts';

export const handler = apiHandler(serviceProviderRoutes.listBusinessLinks, {}, ({ caller }) =>
  listBusinessLinks(caller),
);
