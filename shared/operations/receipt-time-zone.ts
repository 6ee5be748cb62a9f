import type { PaymentRequest } from '#shared/data/payment-request.ts';
import { getStore } from '#shared/data/store.ts';
import { storeTimeZone } from '#shared/domain/country-time-zones.ts';

/**
 * The time zone a payment's receipt is dated in: its store's. Read (one eventually consistent
 * GetItem of the store, 0.5 RCU) only for a payment that has a receipt; undefined otherwise, or for
 * a store gone, which the page dates in Côte d'Ivoire's time. A module of its own, so the pages
 * that show a receipt import the store's module and nothing else for it.
 */
export async function receiptTimeZone(request: PaymentRequest): Promise<string | undefined> {
  if (!request.transaction) return undefined;
  const store = await getStore(request.businessId, request.storeId);
  return store && storeTimeZone(store);
}
