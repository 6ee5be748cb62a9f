import { paymentRequestEndpoints, paymentRequestResponse } from '#shared/api/payment-requests.ts';
import { apiHandler } from '#shared/http/api-handler.ts';
import { idempotent } from '#shared/http/idempotency.ts';
import { showOnDevice } from '#shared/operations/device-push.ts';
import { createPaymentRequestFor } from '#shared/operations/payment-requests.ts';

export const handler = apiHandler(
  paymentRequestEndpoints.createPaymentRequest,
  ({ caller, body, baseUrl, headers, context }) =>
    idempotent(
      {
        operation: 'createPaymentRequest',
        businessId: caller.businessId,
        key: headers['idempotency-key'],
        payload: body,
        context,
      },
      async () => {
        const request = await createPaymentRequestFor(caller, body, baseUrl);
        // A soundbox request's answer also says whether its device is online (`deviceOnline`).
        return { ...paymentRequestResponse(request), ...(await showOnDevice(request)) };
      },
    ),
);
