import { paymentLinkEndpoints, paymentLinkResponse } from '#shared/api/payment-links.ts';
import { apiHandler } from '#shared/http/api-handler.ts';
import { paymentLinkOf } from '#shared/operations/payment-links.ts';

export const handler = apiHandler(paymentLinkEndpoints.getPaymentLink, async ({ caller, params, baseUrl }) =>
  paymentLinkResponse(await paymentLinkOf(caller, params.id), baseUrl),
);
