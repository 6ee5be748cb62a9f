import { object, string } from 'zod';
import { payerPhonePattern } from '#shared/domain/payment-methods.ts';
import { apiHandler } from '#shared/http/api-handler.ts';
import { actAsSandboxPayer } from '#shared/operations/sandbox.ts';
import { routes } from '#shared/routes.ts';
import { paymentRequestPathParams, paymentRequestResponse } from '#shared/schemas/payment-requests.ts';

const body = object({
  payerPhone: string().regex(payerPhonePattern, 'must be +225 followed by 10 digits').optional(),
}).optional();

export const handler = apiHandler(
  routes.approveSandboxPaymentRequest,
  { params: paymentRequestPathParams, body },
  async ({ caller, params, body, baseUrl }) =>
    paymentRequestResponse(await actAsSandboxPayer(caller, params.id, 'approve', body?.payerPhone, baseUrl)),
);
