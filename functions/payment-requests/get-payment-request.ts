import { paymentRequestEndpoints, paymentRequestResponse } from '#shared/api/payment-requests.ts';
import { apiHandler } from '#shared/http/api-handler.ts';
import { paymentRequestOf } from '#shared/operations/payment-requests.ts';

export const handler = apiHandler(paymentRequestEndpoints.getPaymentRequest, async ({ caller, params }) =>
  paymentRequestResponse(await paymentRequestOf(caller, params.id)),
);
