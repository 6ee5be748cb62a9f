import { transferEndpoints, transferResponse } from '#shared/api/transfers.ts';
import { apiHandler } from '#shared/http/api-handler.ts';
import { transferOf } from '#shared/operations/transfers.ts';

export const handler = apiHandler(transferEndpoints.getTransfer, async ({ caller, params }) =>
  transferResponse(await transferOf(caller, params.id)),
);
