import {
  array,
  boolean,
  globalRegistry,
  literal,
  nullable,
  object,
  type output,
  string,
  uuid,
} from 'zod/mini';
import { instant } from '#shared/api/common.ts';
import { endpointsIn } from '#shared/api/endpoint.ts';
import { readsTable } from '#shared/catalogue/access.ts';
import type { Device } from '#shared/data/device.ts';
import { isOnline } from '#shared/domain/soundbox.ts';

export const deviceSchema = object({
  id: string().register(globalRegistry, { description: 'The terminal id, as printed on it.' }),
  type: literal('SoundBoxQrTerminal'),
  storeId: uuid(),
  createdAt: instant,
  online: boolean().register(globalRegistry, {
    description: 'Beyond the spec, additive: connected, or a heartbeat under 90 s old.',
  }),
  lastSeenAt: nullable(instant).register(globalRegistry, {
    description: "When the device's last heartbeat arrived; null before the first.",
  }),
}).register(globalRegistry, {
  id: 'Device',
  examples: [
    {
      id: 'SoundBox-Treichville-01',
      type: 'SoundBoxQrTerminal',
      storeId: '4280b1d6-1f3c-4d53-9a7e-2f1c0c6a9b10',
      createdAt: '2026-11-02T09:20:00.000Z',
      online: true,
      lastSeenAt: '2026-11-23T08:14:05.000Z',
    },
  ],
});

export type DeviceResponse = output<typeof deviceSchema>;

export const deviceResponse = (device: Device, now = new Date()): DeviceResponse => ({
  id: device.id,
  type: device.type,
  storeId: device.storeId,
  createdAt: device.createdAt,
  online: isOnline(device, now),
  lastSeenAt: device.lastSeenAt ?? null,
});

export const deviceEndpoints = /* @__PURE__ */ endpointsIn('devices', {
  listDevices: {
    method: 'GET',
    path: '/partner_api/devices',
    caller: 'api_key',
    access: [...readsTable, 'table:UpdateItem'],
    tag: 'Devices',
    summary: 'List the soundbox terminals',
    response: array(deviceSchema),
    responseDescription: 'The terminals of the business’s stores, as a bare array.',
  },
});
