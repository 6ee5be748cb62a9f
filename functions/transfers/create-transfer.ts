import { apiHandler } from '#shared/http/api-handler.ts';
import { idempotent } from '#shared/http/idempotency.ts';
import { createTransferFor } from '#shared/operations/transfers.ts';
import { transferRoutes } from '#shared/routes.ts';
import { createTransferBody, transferResponse } from '#shared/schemas/transfers.ts';

export const handler = apiHandler(
  transferRoutes.createTransfer,
  { body: createTransferBody },
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
