import { apiHandler } from '#shared/http/api-handler.ts';
import { storesOf } from '#shared/operations/stores.ts';
import { storeRoutes } from '#shared/routes.ts';
import { storeResponse } from '#shared/schemas/stores.ts';

export const handler = apiHandler(storeRoutes.listStores, {}, async ({ caller }) =>
  (await storesOf(caller)).map(storeResponse),
);
