import { sandboxTransferEndpoints } from '#shared/api/sandbox-transfers.ts';
import { transferResponse } from '#shared/api/transfers.ts';
import { apiHandler } from '#shared/http/api-handler.ts';
import { settleAsSandboxProvider } from '#shared/operations/sandbox.ts';

export const handler = apiHandler(sandboxTransferEndpoints.failSandboxTransfer, async ({ caller, params }) =>
  transferResponse(await settleAsSandboxProvider(caller, params.id, 'fail')),
);
