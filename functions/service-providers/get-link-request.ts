import { serviceProviderEndpoints } from '#shared/api/service-providers.ts';
import { apiHandler } from '#shared/http/api-handler.ts';
import { linkRequestOf } from '#shared/operations/link-requests.ts';

export const handler = apiHandler(serviceProviderEndpoints.getLinkRequest, ({ caller, params }) =>
  linkRequestOf(caller, params.id),
);
