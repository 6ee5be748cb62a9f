import { paymentRequestResponse } from '#shared/api/payment-requests.ts';
import { sandboxEndpoints } from '#shared/api/sandbox.ts';
import { apiHandler } from '#shared/http/api-handler.ts';
import { payLinkAsSandboxCustomer } from '#shared/operations/payment-links.ts';

export const handler = apiHandler(
  sandboxEndpoints.paySandboxPaymentLink,
  async ({ caller, params, body, baseUrl }) =>
    paymentRequestResponse(await payLinkAsSandboxCustomer(caller, params.id, body, baseUrl)),
);
