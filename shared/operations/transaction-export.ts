import { pipeline, Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import { getStore, listStores, type Store } from '#shared/data/store.ts';
import { paymentLinkTitles, transactionPagesOf } from '#shared/data/transaction-export.ts';
import { dayCounts } from '#shared/data/transaction-list.ts';
import { lineState, type TransactionRecord, transactionTypes } from '#shared/data/transaction-record.ts';
import { callerSeesStore } from '#shared/domain/caller.ts';
import { storeTimeZone } from '#shared/domain/country-time-zones.ts';
import { maxRangeDays } from '#shared/domain/dates.ts';
import type { Language } from '#shared/domain/languages.ts';
import { StoreNotFound } from '#shared/errors/businesses.ts';
import { recordAudit } from '#shared/operations/audit-log.ts';
import { type ActingMember, callerForMember } from '#shared/operations/dashboard-access.ts';
import { lineStateWords, operatorName } from '#shared/pages/messages.ts';

/**
 * The CSV export of a window of the business's transactions (issue 26, item 2; issue 35, item 3),
 * for the merchant to open in a spreadsheet: the rows `GET /partner_api/transactions` lists for the
 * same days (the same records, newest first), as of the instant the export starts, written as they
 * are read. The API's list is paged by offset through the day counters; the export reads the same
 * day partitions straight through instead (shared/data/transaction-export.ts).
 *
 * The file is for people, not integrators (the API is theirs, and its field names do not change
 * here): UTF-8 with a BOM (spreadsheets then read accents right), `;` between fields in French and
 * `,` in English (the page lets the merchant choose), RFC 4180 quoting, CRLF; headers and words
 * (type, status) in the page's language; amounts signed (money out below zero, fees too) in
 * francs with the separator's decimal mark; phone numbers, references and ids kept as text; what
 * was sold (the payment link's title, else the line's description) in its own column.
 */
export const maxExportRows = 100_000;

/** The list's filter names, shared with the transactions list (the rules' agreements). */
export interface ExportFilters {
  from: string;
  to: string;
  store?: string | undefined;
  type?: TransactionRecord['type'] | undefined;
  status?: TransactionRecord['status'] | undefined;
  operator?: string | undefined;
  q?: string | undefined;
}

export type ExportField = 'from' | 'to' | 'store' | 'type' | 'status' | 'operator' | 'q' | 'separator';
export type ExportProblem =
  | 'dayMalformed'
  | 'toBeforeFrom'
  | 'windowTooLong'
  | 'unknownType'
  | 'unknownStatus'
  | 'operatorMalformed'
  | 'searchTooLong'
  | 'unknownSeparator'
  | 'tooManyRows';

export interface ExportError {
  field: ExportField;
  problem: ExportProblem;
}

const types = transactionTypes;
const statuses = ['pending', 'success', 'error'] as const;
const dayMs = 24 * 60 * 60 * 1000;
const dayShape = /^\d{4}-\d{2}-\d{2}$/;
const isDay = (value: string) =>
  dayShape.test(value) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value);
const dayOf = (at: Date) => at.toISOString().slice(0, 10);

/** The last 30 days, today included (UTC days, as the API's startDate/endDate). */
export function defaultWindow(now = new Date()): { from: string; to: string } {
  return { from: dayOf(new Date(now.getTime() - 29 * dayMs)), to: dayOf(now) };
}

/**
 * The query's filters, or what is wrong with them. The window is the API's: `to` at most 90 days
 * after `from` (`maxRangeDays`); both default to the last 30 days.
 */
export function exportFiltersOf(
  query: Record<string, string | undefined>,
  now = new Date(),
): { filters: ExportFilters; errors: ExportError[] } {
  const given = (name: string) => {
    const value = query[name]?.trim();
    return value === '' ? undefined : value;
  };
  const defaults = defaultWindow(now);
  const from = given('from') ?? defaults.from;
  const to = given('to') ?? defaults.to;
  const type = given('type');
  const status = given('status');
  const operator = given('operator');
  const q = given('q');
  const errors: ExportError[] = [];
  if (!isDay(from)) errors.push({ field: 'from', problem: 'dayMalformed' });
  if (!isDay(to)) errors.push({ field: 'to', problem: 'dayMalformed' });
  if (errors.length === 0) {
    if (to < from) errors.push({ field: 'to', problem: 'toBeforeFrom' });
    else if (Date.parse(to) - Date.parse(from) > maxRangeDays * dayMs)
      errors.push({ field: 'to', problem: 'windowTooLong' });
  }
  if (type !== undefined && !(types as readonly string[]).includes(type))
    errors.push({ field: 'type', problem: 'unknownType' });
  if (status !== undefined && !(statuses as readonly string[]).includes(status))
    errors.push({ field: 'status', problem: 'unknownStatus' });
  if (operator !== undefined && !/^[a-z0-9_-]{1,40}$/.test(operator))
    errors.push({ field: 'operator', problem: 'operatorMalformed' });
  if (q !== undefined && q.length > 64) errors.push({ field: 'q', problem: 'searchTooLong' });
  return {
    filters: {
      from,
      to,
      store: given('store'),
      type: type as ExportFilters['type'],
      status: status as ExportFilters['status'],
      operator,
      q,
    },
    errors,
  };
}

export interface PreparedExport {
  filters: ExportFilters;
  stores: Store[];
  /** The rows the window holds before the type, status, operator and search filters. */
  counted: number;
  asOf: string;
}

/**
 * Checks what can be checked before the first byte: the store is the business's (else 404, as
 * the API's list answers for another business's store), and the window holds at most
 * `maxExportRows` records, counted from the day counters (one query over at most 91 items per
 * store) before the other filters, which are only known row by row.
 */
export async function prepareExport(
  member: ActingMember,
  filters: ExportFilters,
  now = new Date(),
): Promise<PreparedExport | { tooManyRows: number }> {
  const caller = callerForMember(member);
  const stores = await listStores(member.businessId);
  if (filters.store !== undefined) {
    if (!callerSeesStore(caller, filters.store) || !(await getStore(member.businessId, filters.store)))
      throw new StoreNotFound();
  }
  const days = await dayCounts(
    { storeId: filters.store, storeIds: stores.map((store) => store.id) },
    filters.from,
    filters.to,
  );
  const counted = days.reduce((sum, day) => sum + day.count, 0);
  if (counted > maxExportRows) return { tooManyRows: counted };
  return { filters, stores, counted, asOf: now.toISOString() };
}

/**
 * The separator between fields. A spreadsheet opens a CSV with its locale's list separator: `;`
 * where the decimal mark is a comma (French Excel and LibreOffice), `,` in English. The export page
 * offers both, `;` chosen in French and `,` in English; amounts follow it (`1500,25` with `;`,
 * `1500.25` with `,`), so a spreadsheet of either kind reads them as numbers.
 */
export const exportSeparators = ['semicolon', 'comma'] as const;
export type ExportSeparator = (typeof exportSeparators)[number];
export const separatorCharacters: Record<ExportSeparator, ';' | ','> = { semicolon: ';', comma: ',' };
export const defaultSeparator = (language: Language): ExportSeparator =>
  language === 'fr' ? 'semicolon' : 'comma';

/** The query's `separator`, or the language's when absent; `undefined` when it is none of the two. */
export function exportSeparatorOf(
  value: string | undefined,
  language: Language,
): ExportSeparator | undefined {
  const given = value?.trim();
  if (given === undefined || given === '') return defaultSeparator(language);
  return (exportSeparators as readonly string[]).includes(given) ? (given as ExportSeparator) : undefined;
}

/** How the file is written: the headers' and words' language, and the separator. */
export interface ExportFormat {
  language: Language;
  separator: ExportSeparator;
}

/** The file's columns, in order: for a person reading it in a spreadsheet, ids last. */
export const exportColumns = [
  'date',
  'dateUtc',
  'type',
  'status',
  'item',
  'amount',
  'fees',
  'net',
  'currency',
  'paymentMethod',
  'counterpart',
  'number',
  'reference',
  'store',
  'transactionId',
  'paymentRequestId',
  'paymentLinkId',
  'escrowId',
  'refundId',
  'storeId',
] as const;
export type ExportColumn = (typeof exportColumns)[number];

const fileWords = {
  fr: {
    columns: {
      date: 'Date (heure locale)',
      dateUtc: 'Date (UTC)',
      type: 'Type',
      status: 'Statut',
      item: 'Libellé',
      amount: 'Montant',
      fees: 'Frais',
      net: 'Net',
      currency: 'Devise',
      paymentMethod: 'Moyen de paiement',
      counterpart: 'Client ou bénéficiaire',
      number: 'Numéro',
      reference: 'Référence',
      store: 'Point de vente',
      transactionId: 'ID transaction',
      paymentRequestId: 'ID demande de paiement',
      paymentLinkId: 'ID lien de paiement',
      escrowId: 'ID séquestre',
      refundId: 'ID remboursement',
      storeId: 'ID point de vente',
    },
    types: {
      payment: 'Paiement',
      transfer: 'Transfert',
      escrow: 'Séquestre libéré',
      refund: 'Remboursement',
      sms_credit: 'Crédit SMS',
    },
  },
  en: {
    columns: {
      date: 'Date (local time)',
      dateUtc: 'Date (UTC)',
      type: 'Type',
      status: 'Status',
      item: 'Description',
      amount: 'Amount',
      fees: 'Fees',
      net: 'Net',
      currency: 'Currency',
      paymentMethod: 'Payment method',
      counterpart: 'Customer or beneficiary',
      number: 'Number',
      reference: 'Reference',
      store: 'Point of sale',
      transactionId: 'Transaction ID',
      paymentRequestId: 'Payment request ID',
      paymentLinkId: 'Payment link ID',
      escrowId: 'Escrow ID',
      refundId: 'Refund ID',
      storeId: 'Point of sale ID',
    },
    types: {
      payment: 'Payment',
      transfer: 'Transfer',
      escrow: 'Escrow released',
      refund: 'Refund',
      sms_credit: 'SMS credit',
    },
  },
} satisfies Record<
  Language,
  {
    columns: Record<ExportColumn, string>;
    types: Record<TransactionRecord['type'], string>;
  }
>;

/** The header row in the file's language. */
export const exportHeader = (language: Language): string[] =>
  exportColumns.map((column) => fileWords[language].columns[column]);

/** Cents as francs the way people write them: `1500`, or `1500.25` when not whole. No grouping. */
export function francs(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const whole = Math.floor(Math.abs(cents) / 100);
  const rest = Math.abs(cents) % 100;
  return rest === 0 ? `${sign}${whole}` : `${sign}${whole}.${String(rest).padStart(2, '0')}`;
}

/** Francs as the spreadsheet of that separator reads a number: a decimal comma with `;`. */
export const money = (cents: number, separator: ExportSeparator): string =>
  separator === 'semicolon' ? francs(cents).replace('.', ',') : francs(cents);

/**
 * Lines whose money leaves the store: a refund, a transfer (an escrow paid back to its payer too),
 * SMS credit bought. They are written below zero, as the statement writes money out. A payment is
 * money in; an escrow's release moves money the store already holds to its available balance,
 * written above zero as the list shows it (it is not new money: the payment it releases was
 * counted when it came in).
 */
export const isMoneyOut = (type: TransactionRecord['type']) =>
  type === 'refund' || type === 'transfer' || type === 'sms_credit';

/**
 * A text a spreadsheet would run as a formula (`=`, `@`, a leading tab or carriage return; `+` or
 * `-` unless it is a plain number or phone) gets a leading apostrophe, as OWASP advises: a payer's
 * name or a reference is someone else's input, and the file is opened by the merchant.
 */
export function spreadsheetSafe(text: string): string {
  if (/^[=@\t\r]/.test(text) || (/^[+-]/.test(text) && !/^[+-][\d .]*$/.test(text))) return `'${text}`;
  return text;
}

/**
 * A text cell: disarmed (`spreadsheetSafe`), then, when it starts with a digit or a sign, written
 * after a tab, so that Excel and LibreOffice keep it as the text it is: `+221770000001` stays a
 * phone number (not `2,2177E+11`), `000123` keeps its zeros, a reference `2026-11-28` stays a
 * reference. The tab is invisible in the cell, and it is only ever put before what is already
 * harmless (digits, a sign, spaces): what could run as a formula got its apostrophe first.
 * (`="…"` would show as typed in LibreOffice unless its import evaluates formulas, and is itself
 * a formula: not used.)
 */
export function textCell(value: string | undefined): string {
  const safe = spreadsheetSafe(value ?? '');
  return /^[+-]?\d/.test(safe) ? `\t${safe}` : safe;
}

const localClocks = new Map<string, Intl.DateTimeFormat>();
/** `YYYY-MM-DD HH:mm:ss` in that time zone: a date and time every spreadsheet reads as one. */
function clockTime(createdAt: string, timeZone: string): string {
  let clock = localClocks.get(timeZone);
  if (!clock) {
    clock = new Intl.DateTimeFormat('sv-SE', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    localClocks.set(timeZone, clock);
  }
  return clock.format(new Date(createdAt));
}

/**
 * One line of the file. `linkTitle` is the title of the payment link the line came through, if
 * any: what was sold, in the `item` column (else the line's own description).
 */
export function exportRow(
  record: TransactionRecord,
  store: Store | undefined,
  format: ExportFormat,
  linkTitle?: string,
): string[] {
  const words = fileWords[format.language];
  const sign = isMoneyOut(record.type) ? -1 : 1;
  const amount = sign * record.amount.amount;
  const fees = 0 - record.fees.amount;
  const cells: Record<ExportColumn, string> = {
    date: store ? clockTime(record.createdAt, storeTimeZone(store)) : '',
    dateUtc: clockTime(record.createdAt, 'UTC'),
    type: words.types[record.type] ?? record.type,
    // Each end by its own word, as the dashboard's lines say it.
    status: lineStateWords[format.language][lineState(record)],
    item: textCell(linkTitle ?? record.description),
    amount: money(amount, format.separator),
    fees: money(fees, format.separator),
    net: money(amount + fees, format.separator),
    currency: record.currency,
    // By the names the dashboard shows (`Wave`, `Orange Money`, `Virement bancaire`).
    paymentMethod: textCell(operatorName(format.language, record.paymentMethod)),
    counterpart: textCell(record.counterpartLabel),
    number: textCell(record.counterpartIdentifier),
    reference: textCell(record.reference),
    store: textCell(store?.name),
    transactionId: textCell(record.id),
    paymentRequestId: textCell(record.paymentRequestId),
    paymentLinkId: textCell(record.transactionDetails?.paymentLinkId),
    escrowId: textCell(record.escrowId),
    refundId: textCell(record.refundId),
    storeId: textCell(record.storeId),
  };
  return exportColumns.map((column) => cells[column]);
}

/** The search `q`: the id itself, a part of the reference (any case), or the payer's digits. */
export function matchesSearch(record: TransactionRecord, q: string | undefined): boolean {
  if (q === undefined) return true;
  const needle = q.toLowerCase();
  if (record.id === needle || record.reference.toLowerCase().includes(needle)) return true;
  const digits = q.replace(/\D/g, '');
  return digits.length >= 4 && record.counterpartIdentifier.replace(/\D/g, '').includes(digits);
}

export interface ExportStream {
  /** The CSV, to pipe to the response: it reads the next page only as fast as it is sent. */
  body: Readable;
  /** Records the audit entry once the file is sent (or cut short): the window and the rows sent. */
  after: (outcome: { complete: boolean }) => Promise<void>;
  fileName: string;
}

/** The file of a prepared export, read and written a page at a time, in that format. */
export function exportStream(
  member: ActingMember,
  prepared: PreparedExport,
  sourceIp: string,
  format: ExportFormat,
): ExportStream {
  const { filters } = prepared;
  const storesById = new Map(prepared.stores.map((store) => [store.id, store]));
  let rows = 0;
  // The links' titles are read once, when the first line through a link comes up: an id and a
  // title per link, whatever the number of rows.
  let titles: Map<string, string> | undefined;
  async function* lines() {
    for await (const page of transactionPagesOf({
      businessId: member.businessId,
      storeId: filters.store,
      startDate: filters.from,
      endDate: filters.to,
      asOf: prepared.asOf,
      type: filters.type,
      status: filters.status,
      paymentMethod: filters.operator,
    })) {
      for (const record of page) {
        if (!matchesSearch(record, filters.q)) continue;
        rows++;
        const linkId = record.transactionDetails?.paymentLinkId;
        if (linkId !== undefined && titles === undefined) titles = await paymentLinkTitles(member.businessId);
        const title = linkId === undefined ? undefined : titles?.get(linkId);
        yield exportRow(record, storesById.get(record.storeId), format, title);
      }
    }
  }
  const csv = stringify({
    bom: true,
    header: true,
    columns: exportHeader(format.language),
    delimiter: separatorCharacters[format.separator],
    record_delimiter: 'windows',
    // RFC 4180 quotes a field with a line break; the writer alone quotes only its own delimiter.
    // A tab is quoted too (it is no TEXTDATA in RFC 4180): the one `textCell` puts first.
    quoted_match: /[\r\n\t]/,
  });
  // Errors of the reading side end the file (the response is cut short, never completed wrongly).
  const body = pipeline(Readable.from(lines()), csv, () => {});
  return {
    body,
    fileName: `transactions-${filters.from}-${filters.to}.csv`,
    after: ({ complete }) =>
      recordAudit(member, {
        action: 'transactions_exported',
        detail: `${filters.from}..${filters.to}${filters.store ? ` store ${filters.store}` : ''}: ${rows} rows${complete ? '' : ' (cut short)'}`,
        sourceIp,
      }),
  };
}
