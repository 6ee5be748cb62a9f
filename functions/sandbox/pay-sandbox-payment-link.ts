import { paymentRequestResponse } from '#shared/api/payment-requests.ts';
import { sandboxPaymentEndpoints } from '#shared/api/sandbox-payments.ts';
import { apiHandler } from '#shared/http/api-handler.ts';
import { payLinkAndLeave } from '#shared/operations/sandbox.ts';

export const handler = apiHandler(
  sandboxPaymentEndpoints.paySandboxPaymentLink,
  async ({ caller, params, body, baseUrl }) =>
    paymentRequestResponse(await payLinkAndLeave(caller, params.id, body, baseUrl)),
);
