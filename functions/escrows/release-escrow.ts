import { apiHandler } from '#shared/http/api-handler.ts';
import { releaseEscrowFor } from '#shared/operations/escrows.ts';
import { routes } from '#shared/routes.ts';
import { escrowPathParams, escrowResponse } from '#shared/schemas/escrows.ts';

export const handler = apiHandler(
  routes.releaseEscrow,
  { params: escrowPathParams },
  async ({ caller, params }) => escrowResponse(await releaseEscrowFor(caller, params.id)),
);
