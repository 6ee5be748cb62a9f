import { paymentLinkEndpoints, paymentLinkResponse } from '#shared/api/payment-links.ts';
import { apiHandler } from '#shared/http/api-handler.ts';
import { idempotent } from '#shared/http/idempotency.ts';
import { createPaymentLinkFor } from '#shared/operations/payment-links.ts';

export const handler = apiHandler(
  paymentLinkEndpoints.createPaymentLink,
  ({ caller, body, baseUrl, headers, context }) =>
    idempotent(
      {
        operation: 'createPaymentLink',
        businessId: caller.businessId,
        key: headers['idempotency-key'],
        payload: body,
        context,
      },
      async () => paymentLinkResponse(await createPaymentLinkFor(caller, body), baseUrl),
    ),
);
