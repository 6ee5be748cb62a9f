import { apiHandler } from '#shared/http/api-handler.ts';
import { paymentLinkOf } from '#shared/operations/payment-links.ts';
import { routes } from '#shared/routes.ts';
import { paymentLinkPathParams, paymentLinkResponse } from '#shared/schemas/payment-links.ts';

export const handler = apiHandler(
  routes.getPaymentLink,
  { params: paymentLinkPathParams },
  async ({ caller, params, baseUrl }) => paymentLinkResponse(await paymentLinkOf(caller, params.id), baseUrl),
);
