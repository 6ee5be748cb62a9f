import { apiHandler } from '#shared/http/api-handler.ts';
import { startVerification } from '#shared/operations/compliance-verifications.ts';
import { routes } from '#shared/routes.ts';
import { createComplianceVerificationBody } from '#shared/schemas/service-providers.ts';

export const handler = apiHandler(
  routes.createComplianceVerification,
  { body: createComplianceVerificationBody },
  ({ caller, body, baseUrl }) => startVerification(caller, body, baseUrl),
);
