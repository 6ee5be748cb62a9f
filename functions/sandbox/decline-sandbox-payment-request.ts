import { paymentRequestResponse } from '#shared/api/payment-requests.ts';
import { sandboxPaymentEndpoints } from '#shared/api/sandbox-payments.ts';
import { apiHandler } from '#shared/http/api-handler.ts';
import { actAsSandboxPayer } from '#shared/operations/sandbox.ts';

export const handler = apiHandler(
  sandboxPaymentEndpoints.declineSandboxPaymentRequest,
  async ({ caller, params, baseUrl }) =>
    paymentRequestResponse(await actAsSandboxPayer(caller, params.id, 'decline', undefined, baseUrl)),
);
