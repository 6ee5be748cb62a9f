import { apiHandler } from '#shared/http/api-handler.ts';
import { paymentRequestOf } from '#shared/operations/payment-requests.ts';
import { paymentRequestRoutes } from '#shared/routes.ts';
import { paymentRequestPathParams, paymentRequestResponse } from '#shared/schemas/payment-requests.ts';

export const handler = apiHandler(
  paymentRequestRoutes.getPaymentRequest,
  { params: paymentRequestPathParams },
  async ({ caller, params }) => paymentRequestResponse(await paymentRequestOf(caller, params.id)),
);
