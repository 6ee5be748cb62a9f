import { serviceProviderEndpoints } from '#shared/api/service-providers.ts';
import { apiHandler } from '#shared/http/api-handler.ts';
import { startVerification } from '#shared/operations/compliance-verifications.ts';

export const handler = apiHandler(
  serviceProviderEndpoints.createComplianceVerification,
  ({ caller, body, baseUrl }) => startVerification(caller, body, baseUrl),
);
