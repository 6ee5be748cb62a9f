import { storeEndpoints, storeResponse } from '#shared/api/stores.ts';
import { apiHandler } from '#shared/http/api-handler.ts';
import { storesOf } from '#shared/operations/stores.ts';

export const handler = apiHandler(storeEndpoints.listStores, async ({ caller }) =>
  (await storesOf(caller)).map(storeResponse),
);
