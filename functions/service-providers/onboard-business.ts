import { serviceProviderEndpoints } from '#shared/api/service-providers.ts';
import { apiHandler } from '#shared/http/api-handler.ts';
import { onboardBusiness } from '#shared/operations/service-providers.ts';

export const handler = apiHandler(serviceProviderEndpoints.onboardBusiness, ({ caller, body }) =>
  onboardBusiness(caller, body),
);
