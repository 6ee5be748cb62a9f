import { apiHandler } from '#shared/http/api-handler.ts';
import { balanceOf } from '#shared/operations/stores.ts';
import { routes } from '#shared/routes.ts';
import { storePathParams } from '#shared/schemas/stores.ts';

export const handler = apiHandler(routes.getStoreBalance, { params: storePathParams }, ({ caller, params }) =>
  balanceOf(caller, params.storeId),
);
