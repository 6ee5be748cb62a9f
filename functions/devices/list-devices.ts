import { apiHandler } from '#shared/http/api-handler.ts';
import { devicesOf } from '#shared/operations/stores.ts';
import { storeRoutes } from '#shared/routes.ts';
import { deviceResponse } from '#shared/schemas/stores.ts';

export const handler = apiHandler(storeRoutes.listDevices, {}, async ({ caller }) =>
  (await devicesOf(caller)).map((device) => deviceResponse(device)),
);
