import { serviceProviderEndpoints } from '#shared/api/service-providers.ts';
import { apiHandler } from '#shared/http/api-handler.ts';
import { detachBusinessLink } from '#shared/operations/service-providers.ts';

export const handler = apiHandler(serviceProviderEndpoints.detachBusinessLink, ({ caller, params }) =>
  detachBusinessLink(caller, params.merchantBusinessId),
);
