import { apiHandler } from '#shared/http/api-handler.ts';
import { payLinkAsSandboxCustomer } from '#shared/operations/payment-links.ts';
import { paymentLinkRoutes } from '#shared/routes.ts';
import { paymentLinkPathParams, sandboxLinkPaymentBody } from '#shared/schemas/payment-links.ts';
import { paymentRequestResponse } from '#shared/schemas/payment-requests.ts';

export const handler = apiHandler(
  paymentLinkRoutes.paySandboxPaymentLink,
  { params: paymentLinkPathParams, body: sandboxLinkPaymentBody },
  async ({ caller, params, body, baseUrl }) =>
    paymentRequestResponse(await payLinkAsSandboxCustomer(caller, params.id, body, baseUrl)),
);
