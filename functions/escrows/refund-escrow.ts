import { escrowEndpoints, escrowResponse } from '#shared/api/escrows.ts';
import { apiHandler } from '#shared/http/api-handler.ts';
import { refundEscrowFor } from '#shared/operations/escrows.ts';

export const handler = apiHandler(escrowEndpoints.refundEscrow, async ({ caller, params }) =>
  escrowResponse(await refundEscrowFor(caller, params.id)),
);
