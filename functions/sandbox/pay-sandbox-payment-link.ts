import { paymentRequestResponse } from '#shared/api/payment-requests.ts';
import { sandboxPaymentEndpoints } from '#shared/api/sandbox-payments.ts';
import { apiHandler } from '#shared/http/api-handler.ts';
import { payLinkAsSandboxCustomer } from '#shared/operations/payment-links.ts';

export const handler = apiHandler(
  sandboxPaymentEndpoints.paySandboxPaymentLink,
  async ({ caller, params, body, baseUrl }) =>
    paymentRequestResponse(await payLinkAsSandboxCustomer(caller, params.id, body, baseUrl)),
);
