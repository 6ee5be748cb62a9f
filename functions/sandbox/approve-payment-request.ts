import { apiHandler } from '#shared/http/api-handler.ts';
import { actAsSandboxPayer } from '#shared/operations/sandbox.ts';
import { paymentPageRoutes } from '#shared/routes.ts';
import {
  paymentRequestPathParams,
  paymentRequestResponse,
  sandboxPayerBody,
} from '#shared/schemas/payment-requests.ts';

export const handler = apiHandler(
  paymentPageRoutes.approveSandboxPaymentRequest,
  { params: paymentRequestPathParams, body: sandboxPayerBody },
  async ({ caller, params, body, baseUrl }) =>
    paymentRequestResponse(await actAsSandboxPayer(caller, params.id, 'approve', body?.payerPhone, baseUrl)),
);
