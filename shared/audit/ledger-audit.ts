import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import {
  type RefundAuditBreak,
  RefundBooks,
  type RefundFacts,
  refundAuditedEntities,
  refundedPaymentCondition,
  refundFactsOf,
} from '#shared/audit/refund-audit.ts';
import {
  type SmsAuditBreak,
  SmsBooks,
  type SmsFacts,
  smsAuditedEntities,
  smsFactsOf,
} from '#shared/audit/sms-audit.ts';
import { documentClient, tableName } from '#shared/aws/dynamodb.ts';
import { journalOf, shareAttribute } from '#shared/data/ledger.ts';
import { heldAmount } from '#shared/domain/escrows.ts';
import {
  type AccountId,
  accounts,
  ledgerShardOf,
  parseWalletAccount,
  shardName,
} from '#shared/domain/ledger.ts';
import {
  deltaAttributes,
  netAttribute,
  statementAttributePrefix,
  storeDayDeltas,
} from '#shared/domain/statement.ts';
import type { Reservation, WalletKind } from '#shared/domain/wallet.ts';

/**
 * The audit of the books: an offline check of the whole table (the admin command's `audit`, the
 * tests, the benches), never on a request path, so nothing under shared/ but the audit imports
 * it. It reads the table once; the SMS balances are checked by shared/audit/sms-audit.ts.
 */

export interface AuditBreak {
  kind:
    | 'unbalanced_entry'
    | 'postings_do_not_sum_to_zero'
    | 'balance_differs_from_postings'
    | 'share_differs_from_postings'
    | 'available_differs_from_total_minus_blocked'
    | 'negative_available_balance'
    | 'blocked_differs_from_open_reservations'
    | 'postings_to_a_missing_account'
    | 'escrow_wallet_differs_from_held_escrows'
    | 'day_counters_differ_from_wallet'
    | 'day_counter_differs_from_entries'
    | SmsAuditBreak['kind']
    | RefundAuditBreak['kind'];
  subject: string;
  detail: string;
}

export interface AuditReport {
  ok: boolean;
  entries: number;
  postings: number;
  wallets: number;
  /** Non-wallet accounts (fees, clearing, ...), each the sum of its shares. */
  accounts: number;
  /** Items holding shares of non-wallet accounts: wallets and bucket shards. */
  shards: number;
  /** The balance of every non-wallet account: the sum of its shares over all shards. */
  accountBalances: Record<AccountId, number>;
  /** Reservations still open (transfers waiting for their provider). */
  openReservations: number;
  /** Escrows whose money is in their store's escrow wallet (held, or being refunded). */
  heldEscrows: number;
  /** The sum of every posting ever made: zero in balanced books. */
  sumOfAllPostings: number;
  /** Businesses with an SMS account, each checked against its credits and charged messages. */
  smsAccounts: number;
  /** Payments refunded at least once, each checked against its refunds. */
  refundedPayments: number;
  breaks: AuditBreak[];
}

/** What an audit looks at: some accounts and shards (`LedgerBooks.put` answers them), or all. */
export interface AuditScope {
  accounts: Set<AccountId>;
  shards: Set<string>;
  /** Businesses whose SMS balance or its records changed. */
  smsBusinesses: Set<string>;
  /** Payment requests whose refund counters or refunds changed. */
  refundedPayments: Set<string>;
}

export const emptyScope = (): AuditScope => ({
  accounts: new Set(),
  shards: new Set(),
  smsBusinesses: new Set(),
  refundedPayments: new Set(),
});

const sharePrefix = shareAttribute('');

interface WalletBalance {
  total: number;
  blocked: number;
  available: number | undefined;
}

/** What one item of the table contributes to the books; most items contribute nothing. */
interface ItemFacts extends SmsFacts, RefundFacts {
  entry?: {
    id: string;
    postings: { account: AccountId; amount: number }[];
    shard: string;
    /** What the entry adds to each store's statement counter of its day. */
    statement: StatementFacts[];
  };
  /** A store's day counter: the statement attributes it holds. */
  statementCounter?: StatementFacts;
  wallet?: { account: AccountId; balance: WalletBalance };
  /** Shares of non-wallet accounts held by the item (a wallet or a bucket shard), by shard. */
  shares?: { shard: string; amounts: [AccountId, number][] };
  openReservation?: { account: AccountId; amount: number };
  heldEscrow?: { wallet: AccountId; held: number };
}

/** A statement counter attribute that says `counted` where the day's entries say `posted`. */
export interface StatementGap {
  storeId: string;
  day: string;
  attribute: string;
  counted: number;
  posted: number;
}

/** Statement amounts of one store's day (`st:` attributes of its day counter). */
interface StatementFacts {
  storeId: string;
  day: string;
  amounts: [string, number][];
}

/** What an entry adds to the statement counters; none for an entry the ledger would refuse. */
function statementFactsOf(entry: ReturnType<typeof journalOf>): StatementFacts[] {
  try {
    return storeDayDeltas(entry).map((delta) => ({
      storeId: delta.storeId,
      day: delta.day,
      amounts: Object.entries(deltaAttributes(delta)),
    }));
  } catch {
    // Unbalanced: reported as such, it is no statement's business.
    return [];
  }
}

/** The item kinds the audit reads: the filter of its scan, and what `factsOf` understands. */
const auditedEntities = {
  ':entry': 'journal_entry',
  ':wallet': 'wallet',
  ':shard': 'ledger_shard',
  ':escrow': 'escrow',
  ':counter': 'transaction_counter',
  ...smsAuditedEntities,
  ...refundAuditedEntities,
};

function factsOf(item: Record<string, unknown>): ItemFacts {
  const sms = smsFactsOf(item);
  if (sms) return sms;
  // A refund also holds a reservation (below), as a transfer does.
  const refunds = refundFactsOf(item);
  if (refunds && !refunds.refund) return refunds;
  if (item.entity === 'escrow') {
    if (item.status !== 'held' && item.status !== 'refunding') return {};
    return {
      heldEscrow: {
        wallet: accounts.wallet(item.businessId as string, item.storeId as string, 'escrow'),
        held: heldAmount({ amount: Number(item.amount), fees: Number(item.fees) }),
      },
    };
  }
  const facts: ItemFacts = { ...refunds };
  const reservation = item.reservation as Reservation | undefined;
  if (reservation?.state === 'open')
    facts.openReservation = { account: reservation.account, amount: Number(reservation.amount) };
  if (item.entity === 'journal_entry' || item.journal) {
    const entry = journalOf(item);
    facts.entry = {
      id: entry.id,
      postings: entry.postings.map(({ account, amount }) => ({ account, amount })),
      shard: shardName(ledgerShardOf(entry)),
      statement: statementFactsOf(entry),
    };
  } else if (item.entity === 'wallet') {
    const account = accounts.wallet(
      item.businessId as string,
      item.storeId as string,
      item.kind as 'operating',
    );
    facts.wallet = {
      account,
      balance: {
        total: Number(item.total),
        blocked: Number(item.blocked),
        available: item.available === undefined ? undefined : Number(item.available),
      },
    };
    facts.shares = { shard: account, amounts: sharesOf(item) };
  } else if (item.entity === 'transaction_counter') {
    facts.statementCounter = {
      storeId: String(item.pk).slice('TXCOUNT#'.length),
      day: item.sk as string,
      amounts: Object.entries(item)
        .filter(([name]) => name.startsWith(statementAttributePrefix))
        .map(([name, value]) => [name, Number(value)]),
    };
  } else if (item.entity === 'ledger_shard') {
    facts.shares = { shard: shardName({ bucket: Number(item.bucket) }), amounts: sharesOf(item) };
  }
  return facts;
}

const sharesOf = (item: Record<string, unknown>): [AccountId, number][] =>
  Object.entries(item)
    .filter(([name]) => name.startsWith(sharePrefix))
    .map(([name, value]) => [name.slice(sharePrefix.length), Number(value)]);

const addTo = <K>(map: Map<K, number>, key: K, amount: number) => map.set(key, (map.get(key) ?? 0) + amount);

function addShare(
  shares: Map<string, Map<AccountId, number>>,
  shard: string,
  account: AccountId,
  amount: number,
) {
  const ofShard = shares.get(shard) ?? new Map<AccountId, number>();
  addTo(ofShard, account, amount);
  shares.set(shard, ofShard);
}

/**
 * The books as the audit sees them, folded from the table's items one at a time, with the rules
 * that must hold between them. The full audit folds every item of a scan and checks everything; a
 * caller that knows which items changed (the simulation, after each step) `put`s their new
 * versions into books it keeps (`remember`) and checks only the accounts, shards and businesses
 * those items touch, with the same rules, at a cost that follows the change, not the table.
 */
export class LedgerBooks {
  private readonly remembered: Map<string, ItemFacts> | undefined;
  private readonly postedTo = new Map<AccountId, number>();
  /** shard name -> account -> sum of the postings booked there, from the journal. */
  private readonly expectedShares = new Map<string, Map<AccountId, number>>();
  private readonly foundShares = new Map<string, Map<AccountId, number>>();
  /** account -> the sum of its shares over every shard. */
  private readonly shareTotals = new Map<AccountId, number>();
  private readonly wallets = new Map<AccountId, WalletBalance>();
  private readonly reservedOn = new Map<AccountId, number>();
  /** escrow wallet account -> what its held and refunding escrows hold. */
  private readonly heldInEscrow = new Map<AccountId, number>();
  /** storeId -> day -> statement attribute -> amount: from the journal, and on the counters. */
  private readonly expectedStatement = new Map<string, Map<string, Map<string, number>>>();
  private readonly foundStatement = new Map<string, Map<string, Map<string, number>>>();
  /** storeId -> its business, learnt from its wallets: a counter's key names only its store. */
  private readonly businessOfStore = new Map<string, string>();
  /** Entries whose postings do not sum to zero, by id. */
  private readonly unbalanced = new Map<string, number>();
  private readonly sms = new SmsBooks();
  private readonly refunds = new RefundBooks();
  private entries = 0;
  private postings = 0;
  private openReservations = 0;
  private heldEscrows = 0;
  private sumOfAllPostings = 0;

  /** `remember`: keep what each item contributed, so a newer version of it can replace it. */
  constructor(options: { remember?: boolean } = {}) {
    this.remembered = options.remember ? new Map() : undefined;
  }

  /**
   * Takes an item in, or the newer version of an item taken before (undefined: it was deleted),
   * and answers the scope it touched: what `check` must look at again.
   */
  put(key: { pk: unknown; sk: unknown }, item: Record<string, unknown> | undefined): AuditScope {
    const id = `${key.pk}\u0000${key.sk}`;
    const scope = emptyScope();
    const before = this.remembered?.get(id);
    if (before) this.apply(before, -1, scope);
    const facts = item ? factsOf({ pk: key.pk, sk: key.sk, ...item }) : {};
    this.apply(facts, 1, scope);
    if (this.remembered) {
      if (Object.keys(facts).length > 0) this.remembered.set(id, facts);
      else this.remembered.delete(id);
    }
    return scope;
  }

  private apply(facts: ItemFacts, sign: 1 | -1, scope: AuditScope) {
    const { entry, wallet, shares, openReservation, heldEscrow } = facts;
    if (entry) {
      this.entries += sign;
      let sum = 0;
      for (const { account, amount } of entry.postings) {
        this.postings += sign;
        sum += amount;
        addTo(this.postedTo, account, sign * amount);
        if (!parseWalletAccount(account)) addShare(this.expectedShares, entry.shard, account, sign * amount);
        scope.accounts.add(account);
      }
      for (const facts of entry.statement) this.addStatement(this.expectedStatement, facts, sign, scope);
      this.sumOfAllPostings += sign * sum;
      if (sum !== 0) {
        if (sign > 0) this.unbalanced.set(entry.id, sum);
        else this.unbalanced.delete(entry.id);
      }
      scope.shards.add(entry.shard);
    }
    if (facts.statementCounter) this.addStatement(this.foundStatement, facts.statementCounter, sign, scope);
    if (wallet) {
      const parsed = parseWalletAccount(wallet.account);
      if (parsed) this.businessOfStore.set(parsed.storeId, parsed.businessId);
      if (sign > 0) this.wallets.set(wallet.account, wallet.balance);
      else this.wallets.delete(wallet.account);
      scope.accounts.add(wallet.account);
    }
    if (shares) {
      if (!this.foundShares.has(shares.shard)) this.foundShares.set(shares.shard, new Map());
      for (const [account, amount] of shares.amounts) {
        addShare(this.foundShares, shares.shard, account, sign * amount);
        addTo(this.shareTotals, account, sign * amount);
        scope.accounts.add(account);
      }
      scope.shards.add(shares.shard);
    }
    if (openReservation) {
      this.openReservations += sign;
      addTo(this.reservedOn, openReservation.account, sign * openReservation.amount);
      scope.accounts.add(openReservation.account);
    }
    if (heldEscrow) {
      this.heldEscrows += sign;
      addTo(this.heldInEscrow, heldEscrow.wallet, sign * heldEscrow.held);
      scope.accounts.add(heldEscrow.wallet);
    }
    this.sms.apply(facts, sign, scope.smsBusinesses);
    this.refunds.apply(facts, sign, scope.refundedPayments);
  }

  private addStatement(
    into: Map<string, Map<string, Map<string, number>>>,
    facts: StatementFacts,
    sign: 1 | -1,
    scope: AuditScope,
  ) {
    const days = into.get(facts.storeId) ?? new Map<string, Map<string, number>>();
    into.set(facts.storeId, days);
    const amounts = days.get(facts.day) ?? new Map<string, number>();
    days.set(facts.day, amounts);
    for (const [name, amount] of facts.amounts) addTo(amounts, name, sign * amount);
    const businessId = this.businessOfStore.get(facts.storeId);
    if (businessId)
      for (const kind of ['operating', 'escrow'] as const)
        scope.accounts.add(accounts.wallet(businessId, facts.storeId, kind));
  }

  /**
   * A store's statement counters against its wallets and the journal: the nets of each wallet's
   * days add up to its total (any month's opening plus its movements is its closing), and each
   * day's amounts are exactly what that day's entries did to the store (a counter moved between
   * days, or between kinds, is found even where the sum still holds).
   */
  private statementBreaks(storeId: string, wallets: [AccountId, WalletKind, WalletBalance][]): AuditBreak[] {
    const breaks: AuditBreak[] = [];
    const found = this.foundStatement.get(storeId) ?? new Map<string, Map<string, number>>();
    const expected = this.expectedStatement.get(storeId) ?? new Map<string, Map<string, number>>();
    for (const [account, kind, balance] of wallets) {
      let net = 0;
      for (const amounts of found.values()) net += amounts.get(netAttribute(kind)) ?? 0;
      if (net !== balance.total) {
        breaks.push({
          kind: 'day_counters_differ_from_wallet',
          subject: account,
          detail: `day counters add up to ${net}, total ${balance.total}`,
        });
      }
    }
    for (const day of new Set([...found.keys(), ...expected.keys()])) {
      const on = found.get(day) ?? new Map<string, number>();
      const from = expected.get(day) ?? new Map<string, number>();
      for (const name of new Set([...on.keys(), ...from.keys()])) {
        if ((on.get(name) ?? 0) === (from.get(name) ?? 0)) continue;
        breaks.push({
          kind: 'day_counter_differs_from_entries',
          subject: `TXCOUNT#${storeId} ${day}`,
          detail: `${name} ${on.get(name) ?? 0}, the day's entries ${from.get(name) ?? 0}`,
        });
      }
    }
    return breaks;
  }

  /**
   * Every rule, over the scope given (every account, shard and business when none is): each entry
   * balances, all postings sum to zero, every wallet holds exactly the sum of its postings, its
   * blocked balance is the sum of its open reservations (pending transfers) and its available
   * balance is total less blocked and never negative; every share of a sharded account on a shard
   * holds exactly the postings of the entries booked there (an edited shard is found, not only an
   * edited total) and each sharded account's balance (the sum of its shares) equals the sum of its
   * postings; every store's escrow wallet holds exactly what its held (or refunding) escrows hold,
   * the payment less its fee; every store's statement counters add up, per wallet, to its total,
   * and hold day by day what the journal's entries of that day did (`statementBreaks`); the SMS books' rules (`SmsBooks.check`); and the refunds' against
   * their payments' counters (`RefundBooks.check`).
   */
  check(scope?: AuditScope): AuditBreak[] {
    const breaks: AuditBreak[] = [];
    const inScope = <K>(all: Iterable<K>, chosen: Set<K> | undefined): Iterable<K> =>
      chosen ? [...chosen] : all;
    for (const [id, sum] of this.unbalanced)
      breaks.push({ kind: 'unbalanced_entry', subject: id, detail: `postings sum to ${sum}` });
    if (this.sumOfAllPostings !== 0) {
      breaks.push({
        kind: 'postings_do_not_sum_to_zero',
        subject: 'ledger',
        detail: `all postings sum to ${this.sumOfAllPostings}`,
      });
    }
    const accountsInScope = [
      ...inScope(
        new Set([
          ...this.wallets.keys(),
          ...this.postedTo.keys(),
          ...this.shareTotals.keys(),
          ...this.heldInEscrow.keys(),
        ]),
        scope?.accounts,
      ),
    ];
    for (const account of accountsInScope) {
      const posted = this.postedTo.get(account) ?? 0;
      const wallet = parseWalletAccount(account);
      const balance = this.wallets.get(account);
      if (!wallet) {
        const sumOfShares = this.shareTotals.get(account) ?? 0;
        if (sumOfShares !== posted) {
          breaks.push({
            kind: 'balance_differs_from_postings',
            subject: account,
            detail: `sum of shares ${sumOfShares}, postings ${posted}`,
          });
        }
        continue;
      }
      const held = this.heldInEscrow.get(account);
      if (!balance) {
        if (this.postedTo.has(account)) {
          breaks.push({
            kind: 'postings_to_a_missing_account',
            subject: account,
            detail: `${posted} posted to a wallet that does not exist`,
          });
        }
        if (held !== undefined && held !== 0) {
          breaks.push({
            kind: 'escrow_wallet_differs_from_held_escrows',
            subject: account,
            detail: `escrows hold ${held} in a wallet that does not exist`,
          });
        }
        continue;
      }
      breaks.push(...walletBreaks(account, balance, posted, this.reservedOn.get(account) ?? 0));
      if (wallet.kind === 'escrow' && balance.total !== (held ?? 0)) {
        breaks.push({
          kind: 'escrow_wallet_differs_from_held_escrows',
          subject: account,
          detail: `total ${balance.total}, held by its escrows ${held ?? 0}`,
        });
      }
    }
    const storesInScope = new Map<string, [AccountId, WalletKind, WalletBalance][]>();
    for (const account of accountsInScope) {
      const wallet = parseWalletAccount(account);
      const balance = this.wallets.get(account);
      if (!wallet || !balance) continue;
      storesInScope.set(wallet.storeId, [
        ...(storesInScope.get(wallet.storeId) ?? []),
        [account, wallet.kind, balance],
      ]);
    }
    for (const [storeId, wallets] of storesInScope) breaks.push(...this.statementBreaks(storeId, wallets));
    const shardsInScope = inScope(
      new Set([...this.expectedShares.keys(), ...this.foundShares.keys()]),
      scope?.shards,
    );
    for (const shard of shardsInScope) {
      const expected = this.expectedShares.get(shard) ?? new Map<AccountId, number>();
      const found = this.foundShares.get(shard) ?? new Map<AccountId, number>();
      for (const account of new Set([...expected.keys(), ...found.keys()])) {
        const share = found.get(account) ?? 0;
        if (share !== (expected.get(account) ?? 0)) {
          breaks.push({
            kind: 'share_differs_from_postings',
            subject: `${account} on ${shard}`,
            detail: `share ${share}, postings booked there ${expected.get(account) ?? 0}`,
          });
        }
      }
    }
    breaks.push(...this.sms.check(scope?.smsBusinesses));
    breaks.push(...this.refunds.check(scope?.refundedPayments));
    return breaks;
  }

  /**
   * Each statement counter attribute that differs from what the journal's entries of its day did
   * (`day_counter_differs_from_entries`), with both figures: what a migration adds to fill the
   * counters of days before the ledger kept them.
   */
  statementGaps(): StatementGap[] {
    const gaps: StatementGap[] = [];
    for (const storeId of new Set([...this.expectedStatement.keys(), ...this.foundStatement.keys()])) {
      const found = this.foundStatement.get(storeId) ?? new Map<string, Map<string, number>>();
      const expected = this.expectedStatement.get(storeId) ?? new Map<string, Map<string, number>>();
      for (const day of new Set([...found.keys(), ...expected.keys()])) {
        const on = found.get(day) ?? new Map<string, number>();
        const from = expected.get(day) ?? new Map<string, number>();
        for (const attribute of new Set([...on.keys(), ...from.keys()])) {
          const [counted, posted] = [on.get(attribute) ?? 0, from.get(attribute) ?? 0];
          if (counted !== posted) gaps.push({ storeId, day, attribute, counted, posted });
        }
      }
    }
    return gaps;
  }

  /** The SMS balance of a business as recorded on its account. */
  smsBalanceOf(businessId: string): number {
    return this.sms.balanceOf(businessId);
  }

  report(): AuditReport {
    const breaks = this.check();
    const accountBalances: Record<AccountId, number> = {};
    for (const shares of this.foundShares.values())
      for (const account of shares.keys()) accountBalances[account] = this.shareTotals.get(account) ?? 0;
    for (const shares of this.expectedShares.values())
      for (const account of shares.keys()) accountBalances[account] = this.shareTotals.get(account) ?? 0;
    return {
      ok: breaks.length === 0,
      entries: this.entries,
      postings: this.postings,
      wallets: this.wallets.size,
      accounts: Object.keys(accountBalances).length,
      shards: [...this.foundShares.values()].filter((shares) => shares.size > 0).length,
      accountBalances,
      openReservations: this.openReservations,
      heldEscrows: this.heldEscrows,
      sumOfAllPostings: this.sumOfAllPostings,
      smsAccounts: this.sms.accounts,
      refundedPayments: this.refunds.refundedPayments,
      breaks,
    };
  }
}

function walletBreaks(
  account: AccountId,
  balance: WalletBalance,
  posted: number,
  reserved: number,
): AuditBreak[] {
  const breaks: AuditBreak[] = [];
  if (balance.total !== posted) {
    breaks.push({
      kind: 'balance_differs_from_postings',
      subject: account,
      detail: `total ${balance.total}, postings ${posted}`,
    });
  }
  if (balance.blocked !== reserved) {
    breaks.push({
      kind: 'blocked_differs_from_open_reservations',
      subject: account,
      detail: `blocked ${balance.blocked}, open reservations ${reserved}`,
    });
  }
  const available = balance.available ?? balance.total - balance.blocked;
  if (available !== balance.total - balance.blocked) {
    breaks.push({
      kind: 'available_differs_from_total_minus_blocked',
      subject: account,
      detail: `available ${available}, total ${balance.total}, blocked ${balance.blocked}`,
    });
  }
  if (available < 0)
    breaks.push({ kind: 'negative_available_balance', subject: account, detail: `available ${available}` });
  return breaks;
}

/** Folds every item the audit reads into `books` (fresh ones by default): one Scan of the table. */
export async function readBooks(books = new LedgerBooks()): Promise<LedgerBooks> {
  const names = Object.keys(auditedEntities).join(', ');
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await documentClient.send(
      new ScanCommand({
        TableName: tableName(),
        FilterExpression: `entity IN (${names}) OR attribute_exists(journal) OR attribute_exists(reservation) OR ${refundedPaymentCondition}`,
        ExpressionAttributeValues: auditedEntities,
        ExclusiveStartKey: startKey,
        ConsistentRead: true,
      }),
    );
    for (const item of page.Items ?? []) books.put({ pk: item.pk, sk: item.sk }, item);
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return books;
}

/**
 * Recomputes the books from the journal and the records beside them, and checks every rule of
 * `LedgerBooks.check`. Reads the whole table (a Scan): an operator's check, not a request path.
 *
 * A scan is not a snapshot: on a table in use, a transaction that commits between the pages that
 * hold an account's entries and the page that holds its wallet shows as a break that is not one
 * (seen in the tests, which audit while other files pay). So a break must hold in every one of
 * `passes` scans, one after another: a real break stays (its account and kind, the figures may move
 * on), a write in flight does not. A clean table is read once.
 */
export async function auditLedger(passes = 3): Promise<AuditReport> {
  const same = (item: AuditBreak) => `${item.kind} ${item.subject}`;
  let report = (await readBooks()).report();
  let held = new Set(report.breaks.map(same));
  for (let pass = 2; pass <= passes && held.size > 0; pass++) {
    report = (await readBooks()).report();
    held = new Set(report.breaks.map(same).filter((key) => held.has(key)));
  }
  const breaks = report.breaks.filter((item) => held.has(same(item)));
  return { ...report, ok: breaks.length === 0, breaks };
}
