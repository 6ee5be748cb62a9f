import { pipeline, Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import { maxRangeDays, transactionResponse } from '#shared/api/transactions.ts';
import { getStore, listStores, type Store } from '#shared/data/store.ts';
import { transactionPagesOf } from '#shared/data/transaction-export.ts';
import { dayCounts } from '#shared/data/transaction-list.ts';
import { type TransactionRecord, transactionTypes } from '#shared/data/transaction-record.ts';
import { callerSeesStore } from '#shared/domain/caller.ts';
import { storeTimeZone } from '#shared/domain/country-time-zones.ts';
import { StoreNotFound } from '#shared/errors/businesses.ts';
import { recordAudit } from '#shared/operations/audit-log.ts';
import { type ActingMember, callerForMember } from '#shared/operations/dashboard-access.ts';

/**
 * The CSV export of a window of the business's transactions (issue 26, item 2): the rows the API's
 * `GET /partner_api/transactions` lists for the same days (same ids, amounts, statuses, newest
 * first, every field of its Transaction), as of the instant the export starts, written as they are
 * read. The API's list is paged by offset through the day counters; the export reads the same day
 * partitions straight through instead (shared/data/transaction-export.ts), the same records mapped
 * by the same `transactionResponse`, so the two cannot drift apart.
 *
 * The file: UTF-8 with a BOM (spreadsheet software then reads accents right), RFC 4180 (CRLF
 * between records; a field holding a comma, a quote or a line break is quoted, quotes doubled),
 * a header row, amounts in francs (`1500`, decimals only when not whole) and in cents.
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

export type ExportField = 'from' | 'to' | 'store' | 'type' | 'status' | 'operator' | 'q';
export type ExportProblem =
  | 'dayMalformed'
  | 'toBeforeFrom'
  | 'windowTooLong'
  | 'unknownType'
  | 'unknownStatus'
  | 'operatorMalformed'
  | 'searchTooLong'
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

/** The file's columns: the API's Transaction, amounts in francs and in cents, the store's own time. */
export const exportColumns = [
  'id',
  'createdAt',
  'createdAtLocal',
  'type',
  'status',
  'amount',
  'amountCents',
  'fees',
  'feesCents',
  'currency',
  'paymentMethod',
  'counterpartLabel',
  'counterpartIdentifier',
  'description',
  'reference',
  'storeId',
  'storeName',
  'transactionDetailsId',
  'transactionDetailsReference',
  'paymentLinkId',
  'paymentRequestId',
  'escrowId',
  'refundId',
] as const;

/** Cents as francs the way people write them: `1500`, or `1500.25` when not whole. No grouping. */
export function francs(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const whole = Math.floor(Math.abs(cents) / 100);
  const rest = Math.abs(cents) % 100;
  return rest === 0 ? `${sign}${whole}` : `${sign}${whole}.${String(rest).padStart(2, '0')}`;
}

/**
 * A text a spreadsheet would run as a formula (`=`, `@`, a leading tab or carriage return; `+` or
 * `-` unless it is a plain number or phone) gets a leading apostrophe, as OWASP advises: a payer's
 * name or a reference is someone else's input, and the file is opened by the merchant.
 */
export function spreadsheetSafe(text: string): string {
  if (/^[=@\t\r]/.test(text) || (/^[+-]/.test(text) && !/^[+-][\d .]*$/.test(text))) return `'${text}`;
  return text;
}

const localClocks = new Map<string, Intl.DateTimeFormat>();
/** `YYYY-MM-DD HH:mm:ss` in the store's time zone. */
function localTime(createdAt: string, timeZone: string): string {
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

export function exportRow(record: TransactionRecord, store: Store | undefined): string[] {
  const line = transactionResponse(record);
  const text = (value: string | undefined) => spreadsheetSafe(value ?? '');
  return [
    line.id,
    line.createdAt,
    store ? localTime(line.createdAt, storeTimeZone(store)) : '',
    line.type,
    line.status,
    francs(line.amount.amount),
    String(line.amount.amount),
    francs(line.fees.amount),
    String(line.fees.amount),
    line.currency,
    text(line.paymentMethod),
    text(line.counterpartLabel),
    text(line.counterpartIdentifier),
    text(line.description),
    text(line.reference),
    line.storeId,
    text(store?.name),
    text(line.transactionDetails?.id),
    text(line.transactionDetails?.reference),
    text(line.transactionDetails?.paymentLinkId),
    line.paymentRequestId ?? '',
    line.escrowId ?? '',
    line.refundId ?? '',
  ];
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

/** The file of a prepared export, read and written a page at a time. */
export function exportStream(member: ActingMember, prepared: PreparedExport, sourceIp: string): ExportStream {
  const { filters } = prepared;
  const storesById = new Map(prepared.stores.map((store) => [store.id, store]));
  let rows = 0;
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
        yield exportRow(record, storesById.get(record.storeId));
      }
    }
  }
  const csv = stringify({
    bom: true,
    header: true,
    columns: [...exportColumns],
    record_delimiter: 'windows',
    // RFC 4180 quotes a field with a line break; the writer alone quotes only its own delimiter.
    quoted_match: /[\r\n]/,
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
