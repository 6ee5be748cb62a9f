import { apiHandler } from '#shared/http/api-handler.ts';
import { transferOf } from '#shared/operations/transfers.ts';
import { transferRoutes } from '#shared/routes.ts';
import { transferPathParams, transferResponse } from '#shared/schemas/transfers.ts';

export const handler = apiHandler(
  transferRoutes.getTransfer,
  { params: transferPathParams },
  async ({ caller, params }) => transferResponse(await transferOf(caller, params.id)),
);
