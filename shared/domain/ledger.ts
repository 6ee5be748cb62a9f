import type { Cents } from '#shared/domain/money.ts';
import type { PayoutMethod, ProviderCode } from '#shared/domain/payment-methods.ts';
import type { WalletKind } from '#shared/domain/wallet.ts';
import { UnbalancedEntry } from '#shared/errors/ledger.ts';

/**
 * Double-entry bookkeeping. Every movement of money is one journal entry whose postings sum to
 * zero. A positive posting increases the account's total, a negative one decreases it.
 *
 * Accounts:
 * - `wallet:<businessId>:<storeId>:<kind>`: a store's operating or escrow wallet; its available
 *   balance (total − blocked) can never go below zero.
 * - `platform:fees`: the service's fee revenue.
 * - `clearing:<provider>`: what a mobile-money provider owes the service for collections (goes
 *   negative as payments come in, back up as the provider settles).
 * - `sandbox:funding`: the source of test money credited by the operator on sandbox stages.
 * - `payout:<method>`: what the service owes a provider (or the bank rail) for the transfers it
 *   paid out on the service's behalf (goes up as payouts succeed, back down as the service settles).
 * - `platform:sms`: what businesses paid for SMS credit out of their stores' balances.
 * - `refunds:payers`: what the service owes payers whose collection completed no request (a second
 *   collection of a request already paid, say): up as such a collection comes in, down as its
 *   refund is paid out.
 *
 * Only wallets carry a condition (never below zero); every other account is sharded: an entry's
 * postings to them are booked on the entry's shard (`ledgerShardOf`), and an account's balance is
 * the sum of its shares over all shards.
 */
export type AccountId = string;

export interface Posting {
  account: AccountId;
  amount: Cents;
}

export interface JournalEntry {
  /** Derived from the business event that causes it, so a replay cannot post twice. */
  id: string;
  kind: 'payment' | 'credit' | 'transfer' | 'escrow' | 'refund' | 'withdrawal' | 'sms';
  postings: Posting[];
  createdAt: string;
  /** What caused it, for people reading the books (payment request id, operator, ...). */
  cause: string;
}

export const accounts = {
  wallet: (businessId: string, storeId: string, kind: WalletKind): AccountId =>
    `wallet:${businessId}:${storeId}:${kind}`,
  platformFees: 'platform:fees' as AccountId,
  providerClearing: (provider: ProviderCode): AccountId => `clearing:${provider}`,
  sandboxFunding: 'sandbox:funding' as AccountId,
  payoutClearing: (method: PayoutMethod): AccountId => `payout:${method}`,
  payerRefunds: 'refunds:payers' as AccountId,
  platformSms: 'platform:sms' as AccountId,
};

export interface WalletAccount {
  businessId: string;
  storeId: string;
  kind: WalletKind;
}

export function parseWalletAccount(account: AccountId): WalletAccount | undefined {
  const [type, businessId, storeId, kind] = account.split(':');
  if (type !== 'wallet' || !businessId || !storeId || (kind !== 'operating' && kind !== 'escrow'))
    return undefined;
  return { businessId, storeId, kind };
}

/** An entry is valid when its postings are whole cents, none is zero, and they sum to zero. */
export function assertBalanced(postings: readonly Posting[]): void {
  if (postings.length < 2) throw new UnbalancedEntry('an entry needs at least two postings');
  let sum = 0;
  for (const posting of postings) {
    if (!Number.isSafeInteger(posting.amount) || posting.amount === 0) {
      throw new UnbalancedEntry(`posting to ${posting.account} must be a non-zero whole number of cents`);
    }
    sum += posting.amount;
  }
  if (sum !== 0) throw new UnbalancedEntry(`postings sum to ${sum}, not zero`);
  if (new Set(postings.map((p) => p.account)).size !== postings.length) {
    throw new UnbalancedEntry('an account appears twice in one entry');
  }
}

/** A collection: the provider owes the amount, the store gets it less the fee, the service the fee. */
export function paymentPostings(input: {
  businessId: string;
  storeId: string;
  provider: ProviderCode;
  amount: Cents;
  fee: Cents;
  wallet: WalletKind;
}): Posting[] {
  const postings: Posting[] = [
    { account: accounts.providerClearing(input.provider), amount: -input.amount },
    {
      account: accounts.wallet(input.businessId, input.storeId, input.wallet),
      amount: input.amount - input.fee,
    },
    { account: accounts.platformFees, amount: input.fee },
  ].filter((posting) => posting.amount !== 0);
  assertBalanced(postings);
  return postings;
}

/** Shards for the entries that move no wallet (a provider's settlement, say). */
export const unwalletedShards = 16;

/**
 * Where an entry books its postings to non-wallet accounts: on its first wallet, whose item the
 * entry writes anyway, so a store's movements touch only that store's items and no item is shared
 * across stores; an entry without a wallet, on one of `unwalletedShards` chosen from its id.
 */
export type LedgerShard = { wallet: WalletAccount } | { bucket: number };

export function ledgerShardOf(entry: Pick<JournalEntry, 'id' | 'postings'>): LedgerShard {
  for (const posting of entry.postings) {
    const wallet = parseWalletAccount(posting.account);
    if (wallet) return { wallet };
  }
  let hash = 0;
  for (const char of entry.id) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return { bucket: hash % unwalletedShards };
}

/** How an entry is written: where its shares go, and which of its postings move a wallet. */
export interface EntryPlan {
  shard: LedgerShard;
  wallets: { account: AccountId; wallet: WalletAccount; amount: number; carriesShares: boolean }[];
  /** The postings to accounts that are no wallet: shares kept on the shard. */
  shares: Posting[];
}

/** Checks an entry (balanced, whole cents) and says how it is written. */
export function planEntry(entry: Pick<JournalEntry, 'id' | 'postings'>): EntryPlan {
  assertBalanced(entry.postings);
  const shard = ledgerShardOf(entry);
  const wallets: EntryPlan['wallets'] = [];
  const shares: Posting[] = [];
  for (const posting of entry.postings) {
    const wallet = parseWalletAccount(posting.account);
    if (!wallet) {
      shares.push(posting);
      continue;
    }
    const carriesShares =
      'wallet' in shard &&
      shard.wallet.businessId === wallet.businessId &&
      shard.wallet.storeId === wallet.storeId &&
      shard.wallet.kind === wallet.kind;
    wallets.push({ account: posting.account, wallet, amount: posting.amount, carriesShares });
  }
  return { shard, wallets, shares };
}

/** A readable name for a shard, for the audit's reports. */
export const shardName = (shard: LedgerShard): string =>
  'wallet' in shard
    ? accounts.wallet(shard.wallet.businessId, shard.wallet.storeId, shard.wallet.kind)
    : `bucket:${shard.bucket}`;

/**
 * A transfer that left through a provider (or the bank rail): the store pays amount + fee out of
 * the wallet where they were reserved, the provider is owed the amount it paid the beneficiary,
 * the service keeps the fee.
 */
export function payoutPostings(input: {
  businessId: string;
  storeId: string;
  method: PayoutMethod;
  amount: Cents;
  fee: Cents;
}): Posting[] {
  const postings: Posting[] = [
    {
      account: accounts.wallet(input.businessId, input.storeId, 'operating'),
      amount: -(input.amount + input.fee),
    },
    { account: accounts.payoutClearing(input.method), amount: input.amount },
    { account: accounts.platformFees, amount: input.fee },
  ].filter((posting) => posting.amount !== 0);
  assertBalanced(postings);
  return postings;
}

/** SMS credit bought from a store's operating wallet: the service is paid the price. */
export function smsPurchasePostings(input: { businessId: string; storeId: string; price: Cents }): Posting[] {
  const postings: Posting[] = [
    { account: accounts.wallet(input.businessId, input.storeId, 'operating'), amount: -input.price },
    { account: accounts.platformSms, amount: input.price },
  ];
  assertBalanced(postings);
  return postings;
}

/** A transfer between two stores of one business: immediate, no provider in between. */
export function storeTransferPostings(input: {
  businessId: string;
  fromStoreId: string;
  toStoreId: string;
  amount: Cents;
  fee: Cents;
}): Posting[] {
  const postings: Posting[] = [
    {
      account: accounts.wallet(input.businessId, input.fromStoreId, 'operating'),
      amount: -(input.amount + input.fee),
    },
    { account: accounts.wallet(input.businessId, input.toStoreId, 'operating'), amount: input.amount },
    { account: accounts.platformFees, amount: input.fee },
  ].filter((posting) => posting.amount !== 0);
  assertBalanced(postings);
  return postings;
}

/**
 * A collection that completed no payment request (an orphan): the provider owes the amount, and
 * the service owes it back to the payer. No store and no fee: the merchant never had it.
 */
export function orphanCollectionPostings(input: { provider: ProviderCode; amount: Cents }): Posting[] {
  const postings: Posting[] = [
    { account: accounts.providerClearing(input.provider), amount: -input.amount },
    { account: accounts.payerRefunds, amount: input.amount },
  ];
  assertBalanced(postings);
  return postings;
}

/** An orphan collection's refund paid out: the debt to the payer becomes one to the provider that paid. */
export function orphanRefundPostings(input: { method: PayoutMethod; amount: Cents }): Posting[] {
  const postings: Posting[] = [
    { account: accounts.payerRefunds, amount: -input.amount },
    { account: accounts.payoutClearing(input.method), amount: input.amount },
  ];
  assertBalanced(postings);
  return postings;
}

/** An escrow released: what its wallet held for the payment moves to the store's operating wallet. */
export function escrowReleasePostings(input: {
  businessId: string;
  storeId: string;
  amount: Cents;
}): Posting[] {
  const postings: Posting[] = [
    { account: accounts.wallet(input.businessId, input.storeId, 'escrow'), amount: -input.amount },
    { account: accounts.wallet(input.businessId, input.storeId, 'operating'), amount: input.amount },
  ];
  assertBalanced(postings);
  return postings;
}

/**
 * An escrow refunded through a provider's payout: the payer gets the whole payment back, what the
 * escrow wallet held and the fee the service took; the provider is owed what it paid out.
 */
export function escrowRefundPostings(input: {
  businessId: string;
  storeId: string;
  method: PayoutMethod;
  amount: Cents;
  fees: Cents;
}): Posting[] {
  const postings: Posting[] = [
    {
      account: accounts.wallet(input.businessId, input.storeId, 'escrow'),
      amount: -(input.amount - input.fees),
    },
    { account: accounts.platformFees, amount: -input.fees },
    { account: accounts.payoutClearing(input.method), amount: input.amount },
  ].filter((posting) => posting.amount !== 0);
  assertBalanced(postings);
  return postings;
}

/**
 * How a refund reaches the payer: the collecting provider's own refund of the collection (it
 * collected less, so it owes the service less: its clearing account goes back up), or a payout to
 * the payer's number (the provider is owed what it paid out, as for a transfer).
 */
export type RefundRoute = 'refund' | 'payout';

/**
 * A refund of a completed payment paid back to its payer: the store pays the amount and the
 * refund's fee out of its operating wallet, where both were reserved; the payment's own fee stays
 * with the service (shared/domain/fees.ts says why).
 */
export function refundPostings(input: {
  businessId: string;
  storeId: string;
  provider: ProviderCode;
  route: RefundRoute;
  amount: Cents;
  fee: Cents;
}): Posting[] {
  // Paid out, a refund is booked as a payout to the payer; reversed by the provider, the amount
  // goes back against what the provider owes for its collections instead.
  const paidOut = payoutPostings({ ...input, method: input.provider });
  if (input.route === 'payout') return paidOut;
  return paidOut.map((posting) =>
    posting.account === accounts.payoutClearing(input.provider)
      ? { ...posting, account: accounts.providerClearing(input.provider) }
      : posting,
  );
}
