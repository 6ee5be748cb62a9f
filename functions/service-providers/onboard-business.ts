import { apiHandler } from '#shared/http/api-handler.ts';
import { onboardBusiness } from '#shared/operations/service-providers.ts';
import { serviceProviderRoutes } from '#shared/routes.ts';
import { onboardBusinessBody } from '#shared/schemas/service-providers.ts';

export const handler = apiHandler(
  serviceProviderRoutes.onboardBusiness,
  { body: onboardBusinessBody },
  ({ caller, body }) => onboardBusiness(caller, body),
);
