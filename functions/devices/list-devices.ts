import { apiHandler } from '#shared/http/api-handler.ts';
import { devicesOf } from '#shared/operations/stores.ts';
import { routes } from '#shared/routes.ts';
import { deviceResponse } from '#shared/schemas/stores.ts';

export const handler = apiHandler(routes.listDevices, {}, async ({ caller }) =>
  (await devicesOf(caller)).map((device) => deviceResponse(device)),
);
