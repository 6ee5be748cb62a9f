import { refundEndpoints, refundResponse } from '#shared/api/refunds.ts';
import { apiHandler } from '#shared/http/api-handler.ts';
import { refundOf } from '#shared/operations/refunds.ts';

export const handler = apiHandler(refundEndpoints.getRefund, async ({ caller, params }) =>
  refundResponse(await refundOf(caller, params.id)),
);
