import { apiHandler } from '#shared/http/api-handler.ts';
import { createMerchantApiKey } from '#shared/operations/service-providers.ts';
import { serviceProviderRoutes } from '#shared/routes.ts';
import { createMerchantApiKeyBody } from '#shared/schemas/service-providers.ts';

// No Idempotency-Key replay: it would keep the secret in the table. A retry makes a second key.
export const handler = apiHandler(
  serviceProviderRoutes.createMerchantApiKey,
  { body: createMerchantApiKeyBody },
  ({ caller, body }) => createMerchantApiKey(caller, body),
);
