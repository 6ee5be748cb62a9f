import { apiHandler } from '#shared/http/api-handler.ts';
import { actAsSandboxPayer } from '#shared/operations/sandbox.ts';
import { paymentPageRoutes } from '#shared/routes.ts';
import { paymentRequestPathParams, paymentRequestResponse } from '#shared/schemas/payment-requests.ts';

export const handler = apiHandler(
  paymentPageRoutes.declineSandboxPaymentRequest,
  { params: paymentRequestPathParams },
  async ({ caller, params, baseUrl }) =>
    paymentRequestResponse(await actAsSandboxPayer(caller, params.id, 'decline', undefined, baseUrl)),
);
