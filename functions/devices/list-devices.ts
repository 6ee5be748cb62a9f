import { deviceEndpoints, deviceResponse } from '#shared/api/devices.ts';
import { apiHandler } from '#shared/http/api-handler.ts';
import { devicesOf } from '#shared/operations/stores.ts';

export const handler = apiHandler(deviceEndpoints.listDevices, async ({ caller }) =>
  (await devicesOf(caller)).map((device) => deviceResponse(device)),
);
