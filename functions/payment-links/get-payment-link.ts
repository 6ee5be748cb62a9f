import { apiHandler } from '#shared/http/api-handler.ts';
import { paymentLinkOf } from '#shared/operations/payment-links.ts';
import { paymentLinkRoutes } from '#shared/routes.ts';
import { paymentLinkPathParams, paymentLinkResponse } from '#shared/schemas/payment-links.ts';

export const handler = apiHandler(
  paymentLinkRoutes.getPaymentLink,
  { params: paymentLinkPathParams },
  async ({ caller, params, baseUrl }) => paymentLinkResponse(await paymentLinkOf(caller, params.id), baseUrl),
);
