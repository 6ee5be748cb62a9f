import { apiHandler } from '#shared/http/api-handler.ts';
import { storesOf } from '#shared/operations/stores.ts';
import { routes } from '#shared/routes.ts';
import { storeResponse } from '#shared/schemas/stores.ts';

export const handler = apiHandler(routes.listStores, {}, async ({ caller }) =>
  (await storesOf(caller)).map(storeResponse),
);
