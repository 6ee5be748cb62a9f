import { accounts, type JournalEntry, planEntry } from '#shared/domain/ledger.ts';
import type { WalletKind } from '#shared/domain/wallet.ts';

/**
 * A store's statement (issue 34, item 5), from what each journal entry did to the store's wallets
 * on its UTC day: per kind of entry, the money that came in, the money that went out and the fee
 * the service took; per wallet, the day's net. The ledger adds these to the store's day counter
 * in the entry's own transaction (shared/data/statement-counter.ts), so a month's statement reads
 * at most 31 small items per store, and its lines always add up to its balances:
 * opening + Σ (in + out − fee) = closing, to the cent.
 *
 * How an entry is split, for each store it touches: each posting to one of the store's wallets is
 * a movement in (above zero) or out (below); the fee is what the entry posts to `platform:fees`,
 * charged to the store whose wallet carries the entry's shares (its first wallet: the collecting
 * store of a payment, the sending store of a transfer), and added back to that wallet's movement,
 * so a payment of 10,000 with a fee of 100 reads "collected 10,000, fee 100" rather than "9,900",
 * and a transfer of 5,000 with a fee of 50 reads "sent 5,000, fee 50". A fee given back (an
 * escrow paid back to its payer, its fee with it) is a negative fee.
 */
export type StatementKind = JournalEntry['kind'];

/** The order a statement lists its kinds in: money in, then what was taken out of it. */
export const statementKinds = [
  'credit',
  'payment',
  'refund',
  'transfer',
  'withdrawal',
  'sms',
  'escrow',
] as const satisfies readonly StatementKind[];

// Every kind of entry has its line: a kind added to the journal without one fails to compile.
type Unlisted = Exclude<StatementKind, (typeof statementKinds)[number]>;
const everyKindListed: Unlisted extends never ? true : never = true;
void everyKindListed;

/** What one kind of entry did to a store (over a day, or a month). Amounts in cents. */
export interface KindTotals {
  /** Money that came into the store's wallets (≥ 0). */
  in: number;
  /** Money that left them, fees apart (≤ 0). */
  out: number;
  /** Fees the service took (a fee given back counts below zero). */
  fee: number;
  /** Entries of this kind that touched the store. */
  count: number;
}

export const noTotals = (): KindTotals => ({ in: 0, out: 0, fee: 0, count: 0 });

/** The net of a kind's totals: what they changed the store's balance by. */
export const netOf = (totals: KindTotals) => totals.in + totals.out - totals.fee;

/** What one entry adds to one store's day. */
export interface StoreDayDelta {
  businessId: string;
  storeId: string;
  /** `YYYY-MM-DD`, the entry's UTC day, as the transaction list's days. */
  day: string;
  kind: StatementKind;
  totals: KindTotals;
  /** The net posted to each of the store's wallets. */
  net: Partial<Record<WalletKind, number>>;
}

/** The UTC day of an instant (`2026-11-30T23:59:59Z` → `2026-11-30`). */
export const statementDay = (createdAt: string) => createdAt.slice(0, 10);

/** What an entry adds to each store whose wallets it touches (none for an entry without wallets). */
export function storeDayDeltas(
  entry: Pick<JournalEntry, 'id' | 'kind' | 'postings' | 'createdAt'>,
): StoreDayDelta[] {
  const { wallets, shares } = planEntry(entry);
  const fee = shares
    .filter((posting) => posting.account === accounts.platformFees)
    .reduce((sum, posting) => sum + posting.amount, 0);
  const day = statementDay(entry.createdAt);
  const byStore = new Map<string, StoreDayDelta>();
  for (const posting of wallets) {
    const key = `${posting.wallet.businessId}:${posting.wallet.storeId}`;
    let delta = byStore.get(key);
    if (!delta) {
      delta = {
        businessId: posting.wallet.businessId,
        storeId: posting.wallet.storeId,
        day,
        kind: entry.kind,
        totals: { ...noTotals(), count: 1 },
        net: {},
      };
      byStore.set(key, delta);
    }
    const charged = posting.carriesShares ? fee : 0;
    const moved = posting.amount + charged;
    if (moved > 0) delta.totals.in += moved;
    else delta.totals.out += moved;
    delta.totals.fee += charged;
    delta.net[posting.wallet.kind] = (delta.net[posting.wallet.kind] ?? 0) + posting.amount;
  }
  return [...byStore.values()];
}

/**
 * The day counter's attributes that hold a store's statement, beside the transaction list's own:
 * `st:<kind>:in|out|fee|n` and `st:net:<wallet kind>`. Only what is not zero is written.
 */
export const statementAttributePrefix = 'st:';
export const kindAttribute = (kind: StatementKind, part: 'in' | 'out' | 'fee' | 'n') =>
  `${statementAttributePrefix}${kind}:${part}`;
export const netAttribute = (wallet: WalletKind) => `${statementAttributePrefix}net:${wallet}`;

/** A delta as the amounts its counter attributes grow by, zeros left out. */
export function deltaAttributes(
  delta: Pick<StoreDayDelta, 'kind' | 'totals' | 'net'>,
): Record<string, number> {
  const attributes: Record<string, number> = {};
  const add = (name: string, amount: number) => {
    if (amount !== 0) attributes[name] = (attributes[name] ?? 0) + amount;
  };
  add(kindAttribute(delta.kind, 'in'), delta.totals.in);
  add(kindAttribute(delta.kind, 'out'), delta.totals.out);
  add(kindAttribute(delta.kind, 'fee'), delta.totals.fee);
  add(kindAttribute(delta.kind, 'n'), delta.totals.count);
  for (const [wallet, amount] of Object.entries(delta.net)) add(netAttribute(wallet as WalletKind), amount);
  return attributes;
}

/** What a store's day counter says of its statement. */
export interface StatementDay {
  day: string;
  kinds: Record<StatementKind, KindTotals>;
  net: Record<WalletKind, number>;
}

export const emptyKinds = (): Record<StatementKind, KindTotals> =>
  Object.fromEntries(statementKinds.map((kind) => [kind, noTotals()])) as Record<StatementKind, KindTotals>;

/** The statement attributes of a day counter item read back (items without any read as zeros). */
export function statementDayOf(day: string, item: Record<string, unknown>): StatementDay {
  const number = (name: string) => Number(item[name] ?? 0);
  const kinds = emptyKinds();
  for (const kind of statementKinds) {
    kinds[kind] = {
      in: number(kindAttribute(kind, 'in')),
      out: number(kindAttribute(kind, 'out')),
      fee: number(kindAttribute(kind, 'fee')),
      count: number(kindAttribute(kind, 'n')),
    };
  }
  return {
    day,
    kinds,
    net: { operating: number(netAttribute('operating')), escrow: number(netAttribute('escrow')) },
  };
}

/** The net of a day over both wallets. */
export const dayNet = (day: StatementDay) => day.net.operating + day.net.escrow;

/** A calendar month, `YYYY-MM`, and its first and last UTC days. */
export function monthDays(month: string): { first: string; last: string } {
  const [year, monthNumber] = month.split('-').map(Number) as [number, number];
  const last = new Date(Date.UTC(year, monthNumber, 0)).getUTCDate();
  return { first: `${month}-01`, last: `${month}-${String(last).padStart(2, '0')}` };
}

export const isMonth = (value: string) => /^\d{4}-(0[1-9]|1[0-2])$/.test(value);

export const monthOf = (at: Date) => at.toISOString().slice(0, 7);

/** The month before `month` (`2026-01` → `2025-12`). */
export function previousMonth(month: string): string {
  const [year, monthNumber] = month.split('-').map(Number) as [number, number];
  return monthOf(new Date(Date.UTC(year, monthNumber - 2, 1)));
}

/**
 * The lines that reconcile a period's balances, as a shop owner reads them (issue 35): what was
 * collected (payments, gross), the fees the service took (every kind's, below zero; a fee given
 * back counts above), the refunds, the transfers, the withdrawals, the SMS bought, what escrows
 * moved (a release moves money between the store's own wallets: nothing; an escrow paid back to
 * its payer: out), and test money. Each kind's in and out, fees apart; so the lines add up to
 * Σ netOf(kind), the balance's change, to the cent.
 */
export const reconciliationLines = [
  'collected',
  'fees',
  'refunds',
  'transfers',
  'withdrawals',
  'sms',
  'escrow',
  'credit',
] as const;
export type ReconciliationLine = (typeof reconciliationLines)[number];

/** Lines shown even at zero, so a reader sees what did not happen; the others only when they moved. */
export const alwaysShownLines: readonly ReconciliationLine[] = [
  'collected',
  'fees',
  'refunds',
  'transfers',
  'withdrawals',
];

/** The kind of entry each line but the fees adds up. */
export const lineKinds = {
  collected: 'payment',
  refunds: 'refund',
  transfers: 'transfer',
  withdrawals: 'withdrawal',
  sms: 'sms',
  escrow: 'escrow',
  credit: 'credit',
} as const satisfies Record<Exclude<ReconciliationLine, 'fees'>, StatementKind>;

/** Each line's amount in cents over a period's kinds; their sum is the balance's change. */
export function reconcile(kinds: Record<StatementKind, KindTotals>): Record<ReconciliationLine, number> {
  const moved = (kind: StatementKind) => kinds[kind].in + kinds[kind].out;
  const fees = statementKinds.reduce((sum, kind) => sum + kinds[kind].fee, 0);
  const lines = { fees: 0 - fees } as Record<ReconciliationLine, number>;
  for (const [line, kind] of Object.entries(lineKinds)) lines[line as ReconciliationLine] = moved(kind);
  return lines;
}
