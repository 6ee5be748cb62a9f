import { object, uuid } from 'zod';
import type { Device } from '#shared/data/device.ts';
import type { Store } from '#shared/data/store.ts';
import type { Money } from '#shared/domain/money.ts';
import { isOnline } from '#shared/domain/soundbox.ts';

export const storePathParams = object({ storeId: uuid() });

/** A store as the API shows it: a bare array of these answers GET /partner_api/stores. */
export interface StoreResponse {
  id: string;
  name: string;
  currency: string;
  createdAt: string;
}

export const storeResponse = (store: Store): StoreResponse => ({
  id: store.id,
  name: store.name,
  currency: store.currency,
  createdAt: store.createdAt,
});

export type BalanceResponse = Money;

export interface DeviceResponse {
  id: string;
  type: string;
  storeId: string;
  createdAt: string;
  /** Beyond the spec, additive: connected, or a heartbeat under 90 s old. */
  online: boolean;
  /** When the device's last heartbeat arrived; null before the first. */
  lastSeenAt: string | null;
}

export const deviceResponse = (device: Device, now = new Date()): DeviceResponse => ({
  id: device.id,
  type: device.type,
  storeId: device.storeId,
  createdAt: device.createdAt,
  online: isOnline(device, now),
  lastSeenAt: device.lastSeenAt ?? null,
});
