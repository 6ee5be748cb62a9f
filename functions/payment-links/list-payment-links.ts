import { paymentLinkEndpoints, paymentLinkResponse } from '#shared/api/payment-links.ts';
import { apiHandler } from '#shared/http/api-handler.ts';
import { paymentLinksOf } from '#shared/operations/payment-links.ts';

export const handler = apiHandler(
  paymentLinkEndpoints.listPaymentLinks,
  async ({ caller, query, baseUrl }) => {
    const page = await paymentLinksOf(caller, query);
    return { ...page, data: page.data.map((link) => paymentLinkResponse(link, baseUrl)) };
  },
);
