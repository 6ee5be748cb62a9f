import { transferEndpoints, transferResponse } from '#shared/api/transfers.ts';
import { apiHandler } from '#shared/http/api-handler.ts';
import { idempotent } from '#shared/http/idempotency.ts';
import { createTransferFor } from '#shared/operations/transfers.ts';

export const handler = apiHandler(
  transferEndpoints.createTransfer,
  ({ caller, body, baseUrl, headers, context }) =>
    idempotent(
      {
        operation: 'createTransfer',
        businessId: caller.businessId,
        key: headers['idempotency-key'],
        payload: body,
        context,
      },
      async () => transferResponse(await createTransferFor(caller, body, baseUrl)),
    ),
);
