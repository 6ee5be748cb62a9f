import { paymentRequestEndpoints, paymentRequestResponse } from '#shared/api/payment-requests.ts';
import { apiHandler } from '#shared/http/api-handler.ts';
import { cancelPaymentRequestFor } from '#shared/operations/end-payment.ts';

export const handler = apiHandler(paymentRequestEndpoints.cancelPaymentRequest, async ({ caller, params }) =>
  paymentRequestResponse(await cancelPaymentRequestFor(caller, params.id)),
);
