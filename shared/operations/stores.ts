import { listDevices } from '#shared/data/device.ts';
import { knownStore, listStores, type Store } from '#shared/data/store.ts';
import { listStoreWallets } from '#shared/data/wallet.ts';
import { type Caller, callerSeesStore } from '#shared/domain/caller.ts';
import type { Money } from '#shared/domain/money.ts';
import { storeAmounts } from '#shared/domain/wallet.ts';
import { StoreNotFound } from '#shared/errors/businesses.ts';
import { ValidationFailed } from '#shared/errors/request.ts';

export async function storesOf(caller: Caller) {
  const stores = await listStores(caller.businessId);
  return stores.filter((store) => callerSeesStore(caller, store.id));
}

export async function devicesOf(caller: Caller) {
  const devices = await listDevices(caller.businessId);
  return devices.filter((device) => callerSeesStore(caller, device.storeId));
}

/**
 * One query: the store's wallets under the caller's business. A store of another business (or
 * outside a scoped key's store) has no wallets there, so it is not found. Wallets are created with
 * their store in one transaction, so "no wallets" means "no such store".
 */
export async function balanceOf(caller: Caller, storeId: string): Promise<Money> {
  if (!callerSeesStore(caller, storeId)) throw new StoreNotFound();
  const wallets = await listStoreWallets(caller.businessId, storeId);
  const [first] = wallets;
  if (!first) throw new StoreNotFound();
  // Money held in escrow is not the store's to spend until released: the balance leaves it out.
  return { amount: storeAmounts(wallets).available, currency: first.currency };
}

/**
 * A store of the caller that money may be asked for in `currency` (the store's own when none is
 * given): another business's store, or one outside a scoped key's store, is not found.
 */
export async function storeForCollection(
  caller: Caller,
  storeId: string,
  currency: string | undefined,
): Promise<Store> {
  if (!callerSeesStore(caller, storeId)) throw new StoreNotFound();
  const store = await knownStore(caller.businessId, storeId);
  if (!store) throw new StoreNotFound();
  if (currency !== undefined && currency !== store.currency) {
    throw new ValidationFailed([
      {
        field: 'currency',
        rule: 'in',
        message: `The currency field must be the store's currency (${store.currency}).`,
      },
    ]);
  }
  return store;
}
