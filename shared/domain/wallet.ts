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

/**
 * A store's money as its dashboard shows it, from its wallets: `available` is the API's balance
 * (what is not in escrow, less what is reserved); `held` is what its escrow wallet holds, not the
 * store's to spend until released; `reserved` is what waits on outgoing transfers and refunds
 * (the escrow wallet's too, while an escrow is being paid back). The three add up to the wallets'
 * totals.
 */
export function storeAmounts(wallets: readonly (WalletBalance & { kind: WalletKind })[]): {
  available: Cents;
  held: Cents;
  reserved: Cents;
} {
  const escrow = wallets.filter((wallet) => wallet.kind === 'escrow');
  return {
    available: storeBalance(wallets.filter((wallet) => wallet.kind !== 'escrow')),
    held: storeBalance(escrow),
    reserved: wallets.reduce((sum, wallet) => sum + wallet.blocked, 0),
  };
}

/**
 * Money set aside on a wallet for an outgoing transfer until its provider answers: `open` while it
 * counts in the wallet's `blocked`, then `posted` (the ledger entry took it out) or `released`
 * (back to available), each exactly once. The wallet's `blocked` is the sum of its open ones.
 */
export type ReservationState = 'open' | 'posted' | 'released';

export interface Reservation {
  /** The wallet's ledger account. */
  account: string;
  amount: Cents;
  state: ReservationState;
}
