import { apiHandler } from '#shared/http/api-handler.ts';
import { idempotent } from '#shared/http/idempotency.ts';
import { showOnDevice } from '#shared/operations/device-push.ts';
import { createPaymentRequestFor } from '#shared/operations/payment-requests.ts';
import { paymentRequestRoutes } from '#shared/routes.ts';
import { createPaymentRequestBody, paymentRequestResponse } from '#shared/schemas/payment-requests.ts';

export const handler = apiHandler(
  paymentRequestRoutes.createPaymentRequest,
  { body: createPaymentRequestBody },
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
