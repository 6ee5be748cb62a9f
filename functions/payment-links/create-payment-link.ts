import { apiHandler } from '#shared/http/api-handler.ts';
import { idempotent } from '#shared/http/idempotency.ts';
import { createPaymentLinkFor } from '#shared/operations/payment-links.ts';
import { paymentLinkRoutes } from '#shared/routes.ts';
import { createPaymentLinkBody, paymentLinkResponse } from '#shared/schemas/payment-links.ts';

export const handler = apiHandler(
  paymentLinkRoutes.createPaymentLink,
  { body: createPaymentLinkBody },
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
