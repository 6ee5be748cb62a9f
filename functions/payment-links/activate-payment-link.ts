import { paymentLinkEndpoints, paymentLinkResponse } from '#shared/api/payment-links.ts';
import { apiHandler } from '#shared/http/api-handler.ts';
import { setPaymentLinkActiveFor } from '#shared/operations/payment-links.ts';

export const handler = apiHandler(
  paymentLinkEndpoints.activatePaymentLink,
  async ({ caller, params, baseUrl }) =>
    paymentLinkResponse(await setPaymentLinkActiveFor(caller, params.id, true), baseUrl),
);
