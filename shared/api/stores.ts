import { array, enum as enumOf, globalRegistry, object, type output, string, uuid } from 'zod/mini';
import { instant, money } from '#shared/api/common.ts';
import { endpointsIn } from '#shared/api/endpoint.ts';
import { readsTable } from '#shared/catalogue/access.ts';
import type { Store } from '#shared/data/store.ts';
import type { Money } from '#shared/domain/money.ts';
import { defaultCountry, uemoaCountries } from '#shared/domain/uemoa-countries.ts';

export const storePathParams = object({
  storeId: uuid().register(globalRegistry, { examples: ['4280b1d6-1f3c-4d53-9a7e-2f1c0c6a9b10'] }),
});

/** A store as the API shows it: a bare array of these answers GET /partner_api/stores. */
export const storeSchema = object({
  id: uuid(),
  name: string(),
  currency: string(),
  country: enumOf(uemoaCountries).register(globalRegistry, {
    description:
      'Where the store sells (ISO 3166-1 alpha-2): its payers’ national numbers are read there, and its payment pages offer that country’s providers first.',
  }),
  createdAt: instant,
}).register(globalRegistry, {
  id: 'Store',
  examples: [
    {
      id: '4280b1d6-1f3c-4d53-9a7e-2f1c0c6a9b10',
      name: 'Boutique Awa Plateau',
      currency: 'XOF',
      country: 'CI',
      createdAt: '2026-11-02T09:15:00.000Z',
    },
  ],
});

export type StoreResponse = output<typeof storeSchema>;

export const storeResponse = (store: Store): StoreResponse => ({
  id: store.id,
  name: store.name,
  currency: store.currency,
  country: store.country ?? defaultCountry,
  createdAt: store.createdAt,
});

export type BalanceResponse = Money;

export const storeEndpoints = /* @__PURE__ */ endpointsIn('stores', {
  listStores: {
    method: 'GET',
    path: '/partner_api/stores',
    caller: 'api_key',
    access: [...readsTable, 'table:UpdateItem'],
    tag: 'Stores',
    summary: 'List the stores',
    response: array(storeSchema),
    responseDescription: 'The stores, as a bare array.',
  },
  getStoreBalance: {
    method: 'GET',
    path: '/partner_api/stores/{storeId}/balance',
    caller: 'api_key',
    access: [...readsTable, 'table:UpdateItem'],
    tag: 'Stores',
    summary: 'Get a store’s balance',
    params: storePathParams,
    response: money,
    responseDescription: 'The available balance.',
    errors: ['store_not_found'],
  },
});
