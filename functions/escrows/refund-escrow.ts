import { apiHandler } from '#shared/http/api-handler.ts';
import { refundEscrowFor } from '#shared/operations/escrows.ts';
import { escrowRoutes } from '#shared/routes.ts';
import { escrowPathParams, escrowResponse } from '#shared/schemas/escrows.ts';

export const handler = apiHandler(
  escrowRoutes.refundEscrow,
  { params: escrowPathParams },
  async ({ caller, params }) => escrowResponse(await refundEscrowFor(caller, params.id)),
);
