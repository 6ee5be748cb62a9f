import type { Cents } from '#shared/domain/money.ts';

/** Each store has one wallet of each kind: payments land in `operating`, held funds in `escrow`. */
export const walletKinds = ['operating', 'escrow'] as const;
export type WalletKind = (typeof walletKinds)[number];

export interface WalletBalance {
  /** What the ledger has posted to the wallet. */
  total: Cents;
  /** Reserved for outgoing transfers that have not settled yet. */
  blocked: Cents;
}

export function available(wallet: WalletBalance): Cents {
  return wallet.total - wallet.blocked;
}

/** The store balance of the interface: the sum over the store's wallets of total − blocked. */
export function storeBalance(wallets: readonly WalletBalance[]): Cents {
  return wallets.reduce((sum, wallet) => sum + available(wallet), 0);
}
