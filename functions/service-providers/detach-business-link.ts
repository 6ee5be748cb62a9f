import { apiHandler } from '#shared/http/api-handler.ts';
import { detachBusinessLink } from '#shared/operations/service-providers.ts';
import { serviceProviderRoutes } from '#shared/routes.ts';
import { merchantBusinessPathParams } from '#shared/schemas/service-providers.ts';

export const handler = apiHandler(
  serviceProviderRoutes.detachBusinessLink,
  { params: merchantBusinessPathParams },
  ({ caller, params }) => detachBusinessLink(caller, params.merchantBusinessId),
);
