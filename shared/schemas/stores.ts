import { array, boolean, literal, nullable, object, type output, string, uuid } from 'zod';
import type { Device } from '#shared/data/device.ts';
import type { Store } from '#shared/data/store.ts';
import type { Money } from '#shared/domain/money.ts';
import { isOnline } from '#shared/domain/soundbox.ts';
import { instant, money } from '#shared/schemas/common.ts';
import type { RouteContracts } from '#shared/schemas/contract.ts';

export const storePathParams = object({
  storeId: uuid().meta({ examples: ['4280b1d6-1f3c-4d53-9a7e-2f1c0c6a9b10'] }),
});

/** A store as the API shows it: a bare array of these answers GET /partner_api/stores. */
export const storeSchema = object({
  id: uuid(),
  name: string(),
  currency: string(),
  createdAt: instant,
}).meta({
  id: 'Store',
  examples: [
    {
      id: '4280b1d6-1f3c-4d53-9a7e-2f1c0c6a9b10',
      name: 'Boutique Awa Plateau',
      currency: 'XOF',
      createdAt: '2026-11-02T09:15:00.000Z',
    },
  ],
});

export type StoreResponse = output<typeof storeSchema>;

export const storeResponse = (store: Store): StoreResponse => ({
  id: store.id,
  name: store.name,
  currency: store.currency,
  createdAt: store.createdAt,
});

export type BalanceResponse = Money;

export const deviceSchema = object({
  id: string().meta({ description: 'The terminal id, as printed on it.' }),
  type: literal('SoundBoxQrTerminal'),
  storeId: uuid(),
  createdAt: instant,
  online: boolean().meta({
    description: 'Beyond the spec, additive: connected, or a heartbeat under 90 s old.',
  }),
  lastSeenAt: nullable(instant).meta({
    description: "When the device's last heartbeat arrived; null before the first.",
  }),
}).meta({
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

export const storeContracts = {
  listStores: {
    tag: 'Stores',
    summary: 'List the stores',
    description: 'The stores of the caller’s business; a key scoped to one store sees that store alone.',
    response: array(storeSchema),
    responseDescription: 'The stores, as a bare array.',
  },
  getStoreBalance: {
    tag: 'Stores',
    summary: 'Get a store’s balance',
    description: 'What the store may move out now: the sum over its wallets of total less blocked, in cents.',
    params: storePathParams,
    response: money,
    responseDescription: 'The available balance.',
    errors: ['store_not_found'],
  },
  listDevices: {
    tag: 'Devices',
    summary: 'List the soundbox terminals',
    response: array(deviceSchema),
    responseDescription: 'The terminals of the business’s stores, as a bare array.',
  },
} as const satisfies RouteContracts;
