import { object, uuid } from 'zod';
import type { Device } from '#shared/data/device.ts';
import type { Store } from '#shared/data/store.ts';
import type { Money } from '#shared/domain/money.ts';

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
}

export const deviceResponse = (device: Device): DeviceResponse => ({
  id: device.id,
  type: device.type,
  storeId: device.storeId,
  createdAt: device.createdAt,
});
