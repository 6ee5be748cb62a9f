import { storeEndpoints } from '#shared/api/stores.ts';
import { apiHandler } from '#shared/http/api-handler.ts';
import { balanceOf } from '#shared/operations/stores.ts';

export const handler = apiHandler(storeEndpoints.getStoreBalance, ({ caller, params }) =>
  balanceOf(caller, params.storeId),
);
