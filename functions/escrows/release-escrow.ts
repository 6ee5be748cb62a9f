import { apiHandler } from '#shared/http/api-handler.ts';
import { releaseEscrowFor } from '#shared/operations/escrows.ts';
import { escrowRoutes } from '#shared/routes.ts';
import { escrowPathParams, escrowResponse } from '#shared/schemas/escrows.ts';

export const handler = apiHandler(
  escrowRoutes.releaseEscrow,
  { params: escrowPathParams },
  async ({ caller, params }) => escrowResponse(await releaseEscrowFor(caller, params.id)),
);
