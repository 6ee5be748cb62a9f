import { apiHandler } from '#shared/http/api-handler.ts';
import { startVerification } from '#shared/operations/compliance-verifications.ts';
import { complianceRoutes } from '#shared/routes.ts';
import { createComplianceVerificationBody } from '#shared/schemas/service-providers.ts';

export const handler = apiHandler(
  complianceRoutes.createComplianceVerification,
  { body: createComplianceVerificationBody },
  ({ caller, body, baseUrl }) => startVerification(caller, body, baseUrl),
);
