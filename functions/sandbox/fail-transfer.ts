import { apiHandler } from '#shared/http/api-handler.ts';
import { settleAsSandboxProvider } from '#shared/operations/sandbox.ts';
import { transferRoutes } from '#shared/routes.ts';
import { transferPathParams, transferResponse } from '#shared/schemas/transfers.ts';

export const handler = apiHandler(
  transferRoutes.failSandboxTransfer,
  { params: transferPathParams },
  async ({ caller, params }) => transferResponse(await settleAsSandboxProvider(caller, params.id, 'fail')),
);
