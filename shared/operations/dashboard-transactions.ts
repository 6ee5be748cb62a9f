import { findEscrow } from '#shared/data/escrow.ts';
import { getPaymentRequest, type PaymentRequest } from '#shared/data/payment-request.ts';
import { type Refund, refundableOf } from '#shared/data/refund.ts';
import { listStores, type Store } from '#shared/data/store.ts';
import { paymentLinkTitles } from '#shared/data/transaction-export.ts';
import {
  filteredRecords,
  getTransactionRecord,
  type RecordFilter,
  recordOfTransaction,
  requestIdOfReference,
} from '#shared/data/transaction-lookup.ts';
import { type TransactionRecord, transactionTypes } from '#shared/data/transaction-record.ts';
import { deliveriesOfEvents, type WebhookDelivery } from '#shared/data/webhook-delivery.ts';
import { maxRangeDays } from '#shared/domain/dates.ts';
import { uuidPattern } from '#shared/domain/ids.ts';
import { providerCodes } from '#shared/domain/payment-methods.ts';
import { readZoneNumber } from '#shared/domain/phone-numbers.ts';
import type { UemoaCountry } from '#shared/domain/uemoa-countries.ts';
import { webhookEventNames } from '#shared/domain/webhook-events.ts';
import { DomainError } from '#shared/errors/domain-error.ts';
import { type ActingMember, callerForMember } from '#shared/operations/dashboard-access.ts';
import { refundsOf } from '#shared/operations/refunds.ts';
import { transactionRecordsOf } from '#shared/operations/transactions.ts';

/**
 * The dashboard's transactions (issue 26, item 2): the list with its filters and search, and one
 * transaction's page. Every list is the API's where the API can answer it (`transactionsOf`, the
 * same pages and totals); the filters and the search the API does not have read the window's
 * records through a filter (shared/data/transaction-lookup.ts), bounded by the window (≤ 90 days),
 * except where an item names what is searched: a payment request's id or reference (its claim).
 */
export { transactionTypes };
export const transactionStatuses = ['pending', 'success', 'error'] as const;
export const operators = providerCodes;
export const rowsPerPage = 25;
/** The default window: the last 30 days, today included. */
const defaultWindowDays = 30;
const dayMs = 86_400_000;

/** A transaction asked for by an id that is none of the business's, or junk: 404. */
export class TransactionNotFound extends DomainError {
  constructor() {
    super('not_found', 'Transaction not found');
  }
}

export interface TransactionFilters {
  store?: string | undefined;
  type?: (typeof transactionTypes)[number] | undefined;
  status?: (typeof transactionStatuses)[number] | undefined;
  operator?: string | undefined;
  from: string;
  to: string;
  q?: string | undefined;
  page: number;
}

export type FilterField = 'store' | 'type' | 'status' | 'operator' | 'from' | 'to' | 'q';
export type FilterError = { field: FilterField; problem: 'unknown' | 'date' | 'order' | 'range' };

const isDay = (value: string) =>
  /^\d{4}-\d{2}-\d{2}$/.test(value) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value);
const dayBefore = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) - days * dayMs).toISOString().slice(0, 10);
const oneOf = <T extends string>(list: readonly T[], value: string | undefined): value is T =>
  value !== undefined && (list as readonly string[]).includes(value);

/**
 * The filters of a list address (the names the export shares: store, type, status, operator,
 * from, to, q, page), with what is wrong in them. A wrong filter is dropped, and the page says why.
 */
export function transactionFiltersOf(
  query: Record<string, string | undefined>,
  storeIds: readonly string[],
  today = new Date().toISOString().slice(0, 10),
): { filters: TransactionFilters; errors: FilterError[] } {
  const errors: FilterError[] = [];
  const given = (name: string) => query[name]?.trim() || undefined;
  const pick = <T extends string>(field: FilterField, list: readonly T[]): T | undefined => {
    const value = given(field);
    if (value === undefined) return undefined;
    if (oneOf(list, value)) return value;
    errors.push({ field, problem: 'unknown' });
    return undefined;
  };
  const store = pick('store', storeIds);
  const type = pick('type', transactionTypes);
  const status = pick('status', transactionStatuses);
  const operator = pick('operator', operators);
  let to = given('to') ?? today;
  if (!isDay(to)) {
    errors.push({ field: 'to', problem: 'date' });
    to = today;
  }
  let from = given('from') ?? dayBefore(to, defaultWindowDays - 1);
  if (!isDay(from)) {
    errors.push({ field: 'from', problem: 'date' });
    from = dayBefore(to, defaultWindowDays - 1);
  } else if (from > to) {
    errors.push({ field: 'from', problem: 'order' });
    from = dayBefore(to, defaultWindowDays - 1);
  } else if (Date.parse(to) - Date.parse(from) > maxRangeDays * dayMs) {
    errors.push({ field: 'from', problem: 'range' });
    from = dayBefore(to, maxRangeDays);
  }
  const page = Math.max(1, Math.min(1000, Number.parseInt(given('page') ?? '1', 10) || 1));
  const q = given('q')?.slice(0, 100);
  return { filters: { store, type, status, operator, from, to, q, page }, errors };
}

/** A line of the list: a record, or a payment request not ended yet (it has no record until then). */
export interface TransactionRow
  extends Pick<
    TransactionRecord,
    | 'id'
    | 'type'
    | 'status'
    | 'errorReason'
    | 'amount'
    | 'fees'
    | 'paymentMethod'
    | 'counterpartLabel'
    | 'counterpartIdentifier'
    | 'reference'
    | 'storeId'
    | 'createdAt'
  > {
  /** The detail page's path under /dashboard/transactions/. */
  detailPath: string;
}

const detailPathOf = (record: Pick<TransactionRecord, 'id' | 'createdAt'>) =>
  `/${record.id}?at=${encodeURIComponent(record.createdAt)}`;

const rowOf = (record: Omit<TransactionRow, 'detailPath'>): TransactionRow => ({
  id: record.id,
  type: record.type,
  status: record.status,
  ...(record.errorReason ? { errorReason: record.errorReason } : {}),
  amount: record.amount,
  fees: record.fees,
  paymentMethod: record.paymentMethod,
  counterpartLabel: record.counterpartLabel,
  counterpartIdentifier: record.counterpartIdentifier,
  reference: record.reference,
  storeId: record.storeId,
  createdAt: record.createdAt,
  detailPath: detailPathOf(record),
});

/** A pending request as a line: the payer has not paid yet, so no record exists. */
const pendingRow = (request: PaymentRequest): TransactionRow => ({
  id: request.id,
  type: 'payment',
  status: 'pending',
  amount: { amount: request.amountCents, currency: request.currency },
  fees: { amount: 0, currency: request.currency },
  paymentMethod: request.collectionMethod ?? request.paymentMethod,
  counterpartLabel: request.payerPhone ?? '',
  counterpartIdentifier: request.payerPhone ?? '',
  reference: request.reference,
  storeId: request.storeId,
  createdAt: request.createdAt,
  detailPath: `/${request.id}`,
});

export interface TransactionListView {
  stores: Store[];
  rows: TransactionRow[];
  /** Known when the API's list answered (no filter it lacks). */
  total?: number | undefined;
  hasNext: boolean;
  /** How the list was read: the API's list, an item named by the search, or the window read through a filter. */
  readBy: 'api' | 'direct' | 'window';
}

/** How many of the business's payment links a search by title looks for at most (the filter's size). */
export const maxLinksSearched = 20;

/** A text as a search compares it: lower case, without accents ("Koné" → "kone"). */
export const searchable = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/**
 * The ways a name may be written in a line, for a `contains` that is case-sensitive: as typed, in
 * lower case, in capitals, and with each word capitalised ("aminata kone" → "Aminata Kone").
 */
function nameVariants(q: string): string[] {
  const lower = q.toLocaleLowerCase('fr');
  const capitalised = lower.replace(
    /(^|[\s'’-])(\p{L})/gu,
    (_, before: string, letter: string) => before + letter.toLocaleUpperCase('fr'),
  );
  return [...new Set([q, lower, q.toLocaleUpperCase('fr'), capitalised])];
}

/**
 * The payment links whose title holds `q` (case and accents aside): their ids, at most
 * `maxLinksSearched`. One Query of the business's links (`paymentLinkTitles`, as the export).
 */
async function linksTitled(businessId: string, q: string): Promise<string[]> {
  const wanted = searchable(q);
  const ids: string[] = [];
  for (const [id, title] of await paymentLinkTitles(businessId)) {
    if (ids.length >= maxLinksSearched) break;
    if (searchable(title).includes(wanted)) ids.push(id);
  }
  return ids;
}

/**
 * A search term, as what it can be: an id, a receipt's short reference, a payer's number, a
 * reference, or words of a name (payer's or beneficiary's), of what was paid (the line's
 * description) or of a payment link's title (`linkIds`: the links whose title holds it).
 */
function searchTermsOf(
  q: string,
  country: UemoaCountry | undefined,
  linkIds: readonly string[] = [],
): RecordFilter['anyOf'] {
  if (uuidPattern.test(q)) {
    const id = q.toLowerCase();
    return ['id', 'paymentRequestId', 'refundId', 'escrowId', 'transactionDetails.id'].map((attribute) => ({
      attribute,
      value: id,
    }));
  }
  const terms: { attribute: string; value: string; prefix?: boolean; within?: boolean }[] = [
    { attribute: 'reference', value: q },
    { attribute: 'transactionDetails.reference', value: q },
  ];
  // The receipt's short reference: the transaction id's first eight characters ("BFE3-7C2F").
  const short = /^([0-9a-f]{4})-?([0-9a-f]{4})$/i.exec(q);
  if (short) terms.push({ attribute: 'id', value: `${short[1]}${short[2]}`.toLowerCase(), prefix: true });
  const phone = readZoneNumber(q, country ?? 'CI');
  if (phone) terms.push({ attribute: 'counterpartIdentifier', value: phone.e164 });
  else if (isWords(q)) {
    for (const variant of nameVariants(q)) {
      terms.push({ attribute: 'counterpartLabel', value: variant, within: true });
      terms.push({ attribute: 'description', value: variant, within: true });
    }
    for (const id of linkIds) terms.push({ attribute: 'transactionDetails.paymentLinkId', value: id });
  }
  return terms;
}

/** A search for words (a name, a title): two characters at least, not an id. */
const isWords = (q: string) => q.trim().length >= 2 && !uuidPattern.test(q);

/** The request a search names directly: by its id, or by its reference's claim (unique per business). */
async function requestNamedBy(businessId: string, q: string): Promise<PaymentRequest | undefined> {
  if (uuidPattern.test(q)) return getPaymentRequest(businessId, q.toLowerCase());
  if (q.length > 100) return undefined;
  const id = await requestIdOfReference(businessId, q);
  return id ? getPaymentRequest(businessId, id) : undefined;
}

function matches(row: TransactionRow, filters: TransactionFilters): boolean {
  return (
    (!filters.store || row.storeId === filters.store) &&
    (!filters.type || row.type === filters.type) &&
    (!filters.status || row.status === filters.status) &&
    (!filters.operator || row.paymentMethod === filters.operator) &&
    row.createdAt.slice(0, 10) >= filters.from &&
    row.createdAt.slice(0, 10) <= filters.to
  );
}

/**
 * One page of the list. Without type, status, operator or search: the API's list of the window
 * (one store's or the business's), its `total` and pages. A search naming a payment request (its
 * id, or its reference's claim) reads that request and its record: 2 to 3 reads. Anything else
 * reads the window's days newest first through a filter until the page is full (cost in
 * shared/data/transaction-lookup.ts: at most the window's records, ~0.5 RCU per 8 lines read).
 * Words (a name, a title: 2 characters or more) are looked for inside the lines' names and
 * descriptions (as typed, in lower case, in capitals, capitalised: DynamoDB's `contains` minds
 * case) and, for the payment links whose title holds them (case and accents aside, at most
 * `maxLinksSearched`), by the line's link: one more Query of the business's links, ~0.5 RCU per
 * 8 links (the export reads the same), and the same bounded window.
 */
export async function transactionListOf(
  member: ActingMember,
  filters: TransactionFilters,
  stores: Store[],
): Promise<TransactionListView> {
  if (!filters.type && !filters.status && !filters.operator && !filters.q) {
    const listed = await transactionRecordsOf(callerForMember(member), {
      storeId: filters.store,
      startDate: filters.from,
      endDate: filters.to,
      page: filters.page,
      limit: rowsPerPage,
    });
    return {
      stores,
      rows: listed.records.map(rowOf),
      total: listed.total,
      hasNext: filters.page * rowsPerPage < listed.total,
      readBy: 'api',
    };
  }
  if (filters.q) {
    const request = await requestNamedBy(member.businessId, filters.q);
    if (request) {
      const record = request.transaction
        ? await recordOfTransaction(member.businessId, request.transaction)
        : undefined;
      const row = record ? rowOf(record) : request.status === 'pending' ? pendingRow(request) : undefined;
      const rows = row && matches(row, filters) && filters.page === 1 ? [row] : [];
      return { stores, rows, hasNext: false, readBy: 'direct' };
    }
  }
  const country = stores.find((store) => store.id === filters.store)?.country ?? stores[0]?.country;
  const linkIds =
    filters.q && isWords(filters.q) && !readZoneNumber(filters.q, country ?? 'CI')
      ? await linksTitled(member.businessId, filters.q)
      : [];
  const equals: Record<string, string> = {};
  if (filters.store) equals.storeId = filters.store;
  if (filters.type) equals.type = filters.type;
  if (filters.status) equals.status = filters.status;
  if (filters.operator) equals.paymentMethod = filters.operator;
  const wanted = filters.page * rowsPerPage + 1;
  const records = await filteredRecords(
    member.businessId,
    { startDate: filters.from, endDate: filters.to, asOf: new Date().toISOString() },
    { equals, ...(filters.q ? { anyOf: searchTermsOf(filters.q, country, linkIds) } : {}) },
    wanted,
  );
  return {
    stores,
    rows: records.slice((filters.page - 1) * rowsPerPage, filters.page * rowsPerPage).map(rowOf),
    hasNext: records.length === wanted,
    readBy: 'window',
  };
}

export interface TransactionDetail {
  /** The list's line; absent for a payment request not ended yet. */
  record?: TransactionRecord | undefined;
  /** The payment request behind the line (a payment's, or the refunded one's). */
  request?: PaymentRequest | undefined;
  store: Store | undefined;
  refunds: Refund[];
  escrow?: Awaited<ReturnType<typeof findEscrow>>;
  deliveries: WebhookDelivery[];
  /** What remains refundable of a paid payment; 0 otherwise. */
  refundableCents: number;
  /** The id in this page's address, and the record's `createdAt` that reads it directly. */
  pageId: string;
  at?: string | undefined;
}

/** A transaction page's path (and its actions', with `suffix`), under /dashboard. */
export const transactionPath = (detail: Pick<TransactionDetail, 'pageId' | 'at'>, suffix = '') =>
  `/transactions/${detail.pageId}${suffix}${detail.at ? `?at=${encodeURIComponent(detail.at)}` : ''}`;

const escrowEventNames = webhookEventNames.filter((name) => name.startsWith('ESCROW_'));

/** How many days back a transaction's page looks for a record named by its id alone. */
const lookBackDays = maxRangeDays;

/**
 * The line or request `id` names, of the member's business. With `at` (the record's `createdAt`,
 * which the list's links carry): one GetItem. Without: the payment request of that id (GetItem),
 * or else the last 90 days read through a filter on the id (the cost of a window: links from other
 * pages should carry `at`). Another business's id, or junk: TransactionNotFound.
 */
async function resolve(
  member: ActingMember,
  id: string,
  at: string | undefined,
): Promise<{ record?: TransactionRecord; request?: PaymentRequest }> {
  if (!uuidPattern.test(id)) throw new TransactionNotFound();
  const lowerId = id.toLowerCase();
  if (at !== undefined && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/.test(at)) {
    const record = await getTransactionRecord(member.businessId, at, lowerId);
    if (!record) throw new TransactionNotFound();
    return { record };
  }
  const request = await getPaymentRequest(member.businessId, lowerId);
  if (request) {
    const record = request.transaction
      ? await recordOfTransaction(member.businessId, request.transaction)
      : undefined;
    return record ? { record, request } : { request };
  }
  const today = new Date().toISOString().slice(0, 10);
  const [record] = await filteredRecords(
    member.businessId,
    { startDate: dayBefore(today, lookBackDays), endDate: today, asOf: new Date().toISOString() },
    { equals: { id: lowerId } },
    1,
  );
  if (!record) throw new TransactionNotFound();
  return { record };
}

/** Everything a transaction's page shows: its line, its request, escrow, refunds and webhook deliveries. */
export async function transactionDetailOf(
  member: ActingMember,
  id: string,
  at?: string | undefined,
): Promise<TransactionDetail> {
  const found = await resolve(member, id, at);
  const { record } = found;
  const requestId = found.request?.id ?? record?.paymentRequestId;
  const request =
    found.request ?? (requestId ? await getPaymentRequest(member.businessId, requestId, true) : undefined);
  const storeId = record?.storeId ?? request?.storeId;
  const isPayment = record === undefined || record.type === 'payment';
  const escrowId = record?.escrowId ?? request?.escrow?.id;
  const [stores, refunds, escrow] = await Promise.all([
    listStores(member.businessId),
    isPayment && request?.status === 'success'
      ? refundsOf(callerForMember(member), { paymentRequestId: request.id, page: 1, limit: 100 })
      : undefined,
    escrowId ? findEscrow(escrowId) : undefined,
  ]);
  const refundList = refunds?.items ?? [];
  const eventIds = [
    ...(record ? [`TRANSACTION_COMPLETED:${record.id}`] : []),
    ...(record?.refundId ? [`REFUND_COMPLETED:${record.refundId}`] : []),
    ...refundList.map((refund) => `REFUND_COMPLETED:${refund.id}`),
    ...(escrowId ? escrowEventNames.map((name) => `${name}:${escrowId}`) : []),
  ];
  const [deliveries, refundableCents] = await Promise.all([
    deliveriesOfEvents(member.businessId, eventIds),
    isPayment && request?.status === 'success' ? refundableOf(request) : 0,
  ]);
  return {
    ...(record ? { record } : {}),
    ...(request ? { request } : {}),
    store: stores.find((store) => store.id === storeId),
    refunds: refundList,
    ...(escrow?.businessId === member.businessId ? { escrow } : {}),
    deliveries,
    refundableCents,
    ...(record ? { pageId: record.id, at: record.createdAt } : { pageId: request?.id ?? id }),
  };
}

/** The payment a transaction's page may refund or cancel: a payment line's request, or a request itself. */
export function actionablePayment(detail: TransactionDetail): PaymentRequest | undefined {
  if (detail.record && detail.record.type !== 'payment') return undefined;
  return detail.request;
}
