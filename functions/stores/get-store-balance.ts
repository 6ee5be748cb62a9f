import { apiHandler } from '#shared/http/api-handler.ts';
import { balanceOf } from '#shared/operations/stores.ts';
import { storeRoutes } from '#shared/routes.ts';
import { storePathParams } from '#shared/schemas/stores.ts';

export const handler = apiHandler(
  storeRoutes.getStoreBalance,
  { params: storePathParams },
  ({ caller, params }) => balanceOf(caller, params.storeId),
);
