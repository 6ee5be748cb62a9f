import { escrowEndpoints, escrowResponse } from '#shared/api/escrows.ts';
import { apiHandler } from '#shared/http/api-handler.ts';
import { escrowsOf } from '#shared/operations/escrows.ts';

export const handler = apiHandler(escrowEndpoints.listEscrows, async ({ caller, query }) =>
  (await escrowsOf(caller, query)).map(escrowResponse),
);
