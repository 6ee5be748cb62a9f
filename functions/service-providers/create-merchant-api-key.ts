import { serviceProviderEndpoints } from '#shared/api/service-providers.ts';
import { apiHandler } from '#shared/http/api-handler.ts';
import { createMerchantApiKey } from '#shared/operations/service-providers.ts';

// No Idempotency-Key replay: it would keep the secret in the table. A retry makes a second key.
export const handler = apiHandler(serviceProviderEndpoints.createMerchantApiKey, ({ caller, body }) =>
  createMerchantApiKey(caller, body),
);
