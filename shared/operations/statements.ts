import { stringify } from 'csv-stringify/sync';
import { storeStatementDays, storeWalletsTotal } from '#shared/data/statement-counter.ts';
import { listStores, type Store } from '#shared/data/store.ts';
import type { Language } from '#shared/domain/languages.ts';
import {
  dayNet,
  emptyKinds,
  isMonth,
  type KindTotals,
  monthDays,
  monthOf,
  netOf,
  previousMonth,
  type StatementKind,
  statementKinds,
} from '#shared/domain/statement.ts';
import { StoreNotFound } from '#shared/errors/businesses.ts';
import type { ActingMember } from '#shared/operations/dashboard-access.ts';

/**
 * Monthly statements (issue 34, item 5), of one store or of the whole business: the opening
 * balance, what each kind of movement added and took (per UTC day and over the month), and the
 * closing balance, where opening + movements = closing to the cent.
 *
 * Read from the stores' statement counters (shared/data/statement-counter.ts), never from the
 * lines: per store, its wallets' total now, and one query of its days from the month's first to
 * today. Closing = the total now less what the days after the month moved; opening = closing less
 * what the month's days moved. So the cost follows the stores and how far back the month is (at
 * most `monthsBack` months, ~730 small items a store), never how many payments were taken. The
 * lines themselves are the transaction export's, for the same days (linked from the page).
 *
 * Balances are the wallets' totals (operating and escrow together): money held in escrow is the
 * store's, and money reserved for a transfer still waiting for its provider is still there.
 */
export const monthsBack = 24;

export interface StatementDayLine {
  day: string;
  kind: StatementKind;
  totals: KindTotals;
}

export interface Statement {
  month: string;
  firstDay: string;
  lastDay: string;
  /** One store, or every store of the business. */
  store: Store | undefined;
  /** Every store of the business (the page's choice). */
  stores: Store[];
  currency: string;
  opening: number;
  closing: number;
  /** Over the month, every kind (zeros included, so a reader sees what did not happen). */
  kinds: Record<StatementKind, KindTotals>;
  /** Per day and kind, oldest first, the kinds that moved. */
  lines: StatementDayLine[];
  /** End-of-day balance of each day that moved. */
  balances: Map<string, number>;
}

/** The months a statement may be asked for, newest first: this one and `monthsBack` - 1 before. */
export function statementMonths(now = new Date()): string[] {
  const months = [monthOf(now)];
  while (months.length < monthsBack) months.push(previousMonth(months[months.length - 1] as string));
  return months;
}

/** The month asked for, if it is one a statement may be made for; the current one by default. */
export function chosenMonth(given: string | undefined, now = new Date()): string | undefined {
  if (given === undefined || given === '') return monthOf(now);
  return isMonth(given) && statementMonths(now).includes(given) ? given : undefined;
}

export interface StoreReading {
  /** The store's wallets' total now. */
  total: number;
  days: Awaited<ReturnType<typeof storeStatementDays>>;
}

/**
 * A store's total and its days since `firstDay`, from one instant: the total is read before and
 * after the days, and all three again if a movement landed in between (the counters and the
 * wallets move in one transaction, so an unchanged total means the days read match it).
 */
export async function readStore(
  businessId: string,
  storeId: string,
  firstDay: string,
): Promise<StoreReading> {
  for (let attempt = 1; ; attempt++) {
    const before = await storeWalletsTotal(businessId, storeId);
    const days = await storeStatementDays(storeId, firstDay, '9999-12-31');
    const after = await storeWalletsTotal(businessId, storeId);
    if (before === after || attempt >= 5) return { total: after, days };
  }
}

export async function statementOf(
  member: ActingMember,
  input: { month: string; storeId?: string | undefined },
): Promise<Statement> {
  const stores = await listStores(member.businessId);
  const store = input.storeId === undefined ? undefined : stores.find((one) => one.id === input.storeId);
  // Another business's store is not found, as everywhere else.
  if (input.storeId !== undefined && !store) throw new StoreNotFound();
  const chosen = store ? [store] : stores;
  const { first, last } = monthDays(input.month);
  const readings = await Promise.all(chosen.map((one) => readStore(member.businessId, one.id, first)));
  const { opening, closing, kinds, byDay, netByDay } = periodOf(readings, first, last);
  const lines: StatementDayLine[] = [];
  const balances = new Map<string, number>();
  let balance = opening;
  for (const day of [...byDay.keys()].sort()) {
    for (const kind of statementKinds) {
      const totals = byDay.get(day)?.get(kind);
      if (totals) lines.push({ day, kind, totals });
    }
    balance += netByDay.get(day) ?? 0;
    balances.set(day, balance);
  }
  return {
    month: input.month,
    firstDay: first,
    lastDay: last,
    store,
    stores,
    currency: store?.currency ?? stores[0]?.currency ?? 'XOF',
    opening,
    closing,
    kinds,
    lines,
    balances,
  };
}

/** What a period (`firstDay` to `lastDay`, UTC days) did to stores read since `firstDay` or before. */
export interface PeriodChange {
  /** The stores' wallets' total at the start of `firstDay` and at the end of `lastDay`. */
  opening: number;
  closing: number;
  /** Over the period, every kind (zeros included). */
  kinds: Record<StatementKind, KindTotals>;
}

/**
 * A period's opening, closing and movements per kind, from readings of its stores (their totals
 * now and their days since the period's first): closing = the totals less what the days after
 * `lastDay` moved; opening = closing less what the period's days moved. Days before `firstDay`
 * are left out, so a reading from further back serves a shorter period too.
 */
export function periodOf(
  readings: readonly StoreReading[],
  firstDay: string,
  lastDay: string,
): PeriodChange & {
  byDay: Map<string, Map<StatementKind, KindTotals>>;
  netByDay: Map<string, number>;
} {
  const kinds = emptyKinds();
  const byDay = new Map<string, Map<StatementKind, KindTotals>>();
  const netByDay = new Map<string, number>();
  let closing = 0;
  for (const { total, days } of readings) {
    closing += total;
    for (const day of days) {
      if (day.day > lastDay) {
        closing -= dayNet(day);
        continue;
      }
      if (day.day < firstDay) continue;
      netByDay.set(day.day, (netByDay.get(day.day) ?? 0) + dayNet(day));
      const ofDay = byDay.get(day.day) ?? new Map<StatementKind, KindTotals>();
      byDay.set(day.day, ofDay);
      for (const kind of statementKinds) {
        const moved = day.kinds[kind];
        if (moved.count === 0 && moved.in === 0 && moved.out === 0 && moved.fee === 0) continue;
        add(kinds[kind], moved);
        const sum = ofDay.get(kind) ?? { in: 0, out: 0, fee: 0, count: 0 };
        add(sum, moved);
        ofDay.set(kind, sum);
      }
    }
  }
  const movements = [...netByDay.values()].reduce((sum, net) => sum + net, 0);
  return { opening: closing - movements, closing, kinds, byDay, netByDay };
}

function add(into: KindTotals, more: KindTotals) {
  into.in += more.in;
  into.out += more.out;
  into.fee += more.fee;
  into.count += more.count;
}

/** The movements of a statement, over every kind: closing − opening. */
export const statementMovements = (statement: Statement) =>
  statementKinds.reduce((sum, kind) => sum + netOf(statement.kinds[kind]), 0);

export const kindNames: Record<Language, Record<StatementKind, string>> = {
  fr: {
    credit: 'Crédits de test',
    payment: 'Encaissements',
    refund: 'Remboursements',
    transfer: 'Transferts',
    withdrawal: 'Retraits',
    sms: 'Achats de SMS',
    escrow: 'Séquestres',
  },
  en: {
    credit: 'Test credits',
    payment: 'Collections',
    refund: 'Refunds',
    transfer: 'Transfers',
    withdrawal: 'Withdrawals',
    sms: 'SMS purchases',
    escrow: 'Escrows',
  },
};

const csvText = {
  fr: {
    columns: [
      'Date',
      'Libellé',
      'Nombre',
      'Entrées (F CFA)',
      'Sorties (F CFA)',
      'Frais (F CFA)',
      'Net (F CFA)',
      'Solde (F CFA)',
    ],
    opening: 'Solde d’ouverture',
    closing: 'Solde de clôture',
    total: (kind: string) => `${kind} (total)`,
    movements: 'Total des mouvements',
  },
  en: {
    columns: [
      'Date',
      'Item',
      'Count',
      'In (F CFA)',
      'Out (F CFA)',
      'Fees (F CFA)',
      'Net (F CFA)',
      'Balance (F CFA)',
    ],
    opening: 'Opening balance',
    closing: 'Closing balance',
    total: (kind: string) => `${kind} (total)`,
    movements: 'Total movements',
  },
} satisfies Record<Language, unknown>;

/**
 * Francs as a spreadsheet reads a number: signed, no thousands separator, decimals only when the
 * amount is not whole, with a decimal comma in French (`-1500`, `12,5`).
 */
export function csvFrancs(cents: number, language: Language): string {
  const francs = cents / 100;
  const text = Number.isInteger(francs) ? String(francs) : francs.toFixed(2);
  return language === 'fr' ? text.replace('.', ',') : text;
}

/**
 * The statement as CSV for a spreadsheet in the region (French Excel first): UTF-8 with a BOM,
 * `;` between fields, CRLF between rows, headers in the page's language; the opening balance,
 * one row per day and kind, the closing balance, then the month's totals per kind. Fees are
 * written as money taken (below zero), as outgoing money is.
 */
export function statementCsv(statement: Statement, language: Language): string {
  const t = csvText[language];
  const money = (cents: number) => csvFrancs(cents, language);
  const rows: string[][] = [[statement.firstDay, t.opening, '', '', '', '', '', money(statement.opening)]];
  statement.lines.forEach((line, index) => {
    const endOfDay = statement.lines[index + 1]?.day !== line.day;
    rows.push([
      line.day,
      kindNames[language][line.kind],
      String(line.totals.count),
      money(line.totals.in),
      money(line.totals.out),
      money(0 - line.totals.fee),
      money(netOf(line.totals)),
      endOfDay ? money(statement.balances.get(line.day) ?? 0) : '',
    ]);
  });
  rows.push([statement.lastDay, t.closing, '', '', '', '', '', money(statement.closing)]);
  for (const kind of statementKinds) {
    const totals = statement.kinds[kind];
    rows.push([
      '',
      t.total(kindNames[language][kind]),
      String(totals.count),
      money(totals.in),
      money(totals.out),
      money(0 - totals.fee),
      money(netOf(totals)),
      '',
    ]);
  }
  rows.push(['', t.movements, '', '', '', '', money(statement.closing - statement.opening), '']);
  return stringify(rows, {
    bom: true,
    header: true,
    columns: t.columns,
    delimiter: ';',
    record_delimiter: 'windows',
    quoted_match: /[\r\n]/,
  });
}

/** The file's name: `releve-2026-11-<store or business>.csv`. */
export const statementFileName = (statement: Statement, language: Language) =>
  `${language === 'fr' ? 'releve' : 'statement'}-${statement.month}${statement.store ? `-${statement.store.id.slice(0, 8)}` : ''}.csv`;
