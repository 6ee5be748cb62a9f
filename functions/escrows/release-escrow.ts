import { escrowEndpoints, escrowResponse } from '#shared/api/escrows.ts';
import { apiHandler } from '#shared/http/api-handler.ts';
import { releaseEscrowFor } from '#shared/operations/escrows.ts';

export const handler = apiHandler(escrowEndpoints.releaseEscrow, async ({ caller, params }) =>
  escrowResponse(await releaseEscrowFor(caller, params.id)),
);
