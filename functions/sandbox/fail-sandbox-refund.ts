import { refundResponse } from '#shared/api/refunds.ts';
import { sandboxRefundEndpoints } from '#shared/api/sandbox-refunds.ts';
import { apiHandler } from '#shared/http/api-handler.ts';
import { settleRefundAsSandboxProvider } from '#shared/operations/sandbox.ts';

export const handler = apiHandler(sandboxRefundEndpoints.failSandboxRefund, async ({ caller, params }) =>
  refundResponse(await settleRefundAsSandboxProvider(caller, params.id, 'fail')),
);
