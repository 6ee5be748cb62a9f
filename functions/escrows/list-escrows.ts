import { apiHandler } from '#shared/http/api-handler.ts';
import { escrowsOf } from '#shared/operations/escrows.ts';
import { escrowRoutes } from '#shared/routes.ts';
import { escrowResponse, listEscrowsQuery } from '#shared/schemas/escrows.ts';

export const handler = apiHandler(
  escrowRoutes.listEscrows,
  { query: listEscrowsQuery },
  async ({ caller, query }) => (await escrowsOf(caller, query)).map(escrowResponse),
);
