import { apiHandler } from '#shared/http/api-handler.ts';
import { actAsSandboxPayer } from '#shared/operations/sandbox.ts';
import { routes } from '#shared/routes.ts';
import { paymentRequestPathParams, paymentRequestResponse } from '#shared/schemas/payment-requests.ts';

export const handler = apiHandler(
  routes.declineSandboxPaymentRequest,
  { params: paymentRequestPathParams },
  async ({ caller, params, baseUrl }) =>
    paymentRequestResponse(await actAsSandboxPayer(caller, params.id, 'decline', undefined, baseUrl)),
);
