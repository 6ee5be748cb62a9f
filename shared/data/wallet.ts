import { queryPrefix } from '#shared/data/query.ts';
import type { WalletBalance, WalletKind } from '#shared/domain/wallet.ts';

/**
 * Wallet: one per store and kind, holding `total` and `blocked` in cents, and `available`
 * (total − blocked) kept beside them in the same updates, because a DynamoDB condition cannot do
 * arithmetic: "available >= amount" is how a debit is refused rather than overdrawing. Balances
 * change only through ledger entries (shared/data/ledger.ts), never directly; a new wallet starts
 * at zero.
 *
 * Key: pk = BIZ#<businessId>, sk = WALLET#<storeId>#<kind>. Under the business partition, so a
 * store of another business has no wallets here: its balance is "not found".
 *
 * Access patterns and cost:
 * - the wallets of one store (store balance): Query pk, begins_with(sk, "WALLET#<storeId>#"),
 *   eventually consistent, 2 items of ~150 bytes: 0.5 RCU.
 * - created with the store (see store.ts).
 */
export interface Wallet extends WalletBalance {
  businessId: string;
  storeId: string;
  kind: WalletKind;
  currency: string;
  available: number;
}

export const walletKey = (businessId: string, storeId: string, kind: WalletKind) => ({
  pk: `BIZ#${businessId}`,
  sk: `WALLET#${storeId}#${kind}`,
});

export function walletItem(input: {
  businessId: string;
  storeId: string;
  kind: WalletKind;
  currency: string;
}) {
  const wallet: Wallet = { ...input, total: 0, blocked: 0, available: 0 };
  return { ...walletKey(input.businessId, input.storeId, input.kind), entity: 'wallet', ...wallet };
}

export async function listStoreWallets(businessId: string, storeId: string): Promise<Wallet[]> {
  const items = await queryPrefix(`BIZ#${businessId}`, `WALLET#${storeId}#`);
  return items.map((item) => ({
    businessId: item.businessId as string,
    storeId: item.storeId as string,
    kind: item.kind as WalletKind,
    currency: item.currency as string,
    total: Number(item.total),
    blocked: Number(item.blocked),
    available: Number(item.available ?? Number(item.total) - Number(item.blocked)),
  }));
}
