import { refundEndpoints, refundResponse } from '#shared/api/refunds.ts';
import { apiHandler } from '#shared/http/api-handler.ts';
import { idempotent } from '#shared/http/idempotency.ts';
import { createRefundFor } from '#shared/operations/refunds.ts';

export const handler = apiHandler(
  refundEndpoints.createRefund,
  ({ caller, body, baseUrl, headers, context }) =>
    idempotent(
      {
        operation: 'createRefund',
        businessId: caller.businessId,
        key: headers['idempotency-key'],
        payload: body,
        context,
      },
      async () => refundResponse(await createRefundFor(caller, body, baseUrl)),
    ),
);
