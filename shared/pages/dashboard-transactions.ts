import type { Store } from '#shared/data/store.ts';
import { lineState } from '#shared/data/transaction-record.ts';
import { storeTimeZone } from '#shared/domain/country-time-zones.ts';
import type { Language } from '#shared/domain/languages.ts';
import { readZoneNumber } from '#shared/domain/phone-numbers.ts';
import {
  type FilterError,
  operators,
  type TransactionFilters,
  type TransactionRow,
  transactionStatuses,
  transactionTypes,
} from '#shared/operations/dashboard-transactions.ts';
import { type Column, errorSummary, idValue, table } from '#shared/pages/components.ts';
import { dashboardTemplate } from '#shared/pages/dashboard-template.ts';
import { type DashboardPageContext, dashboardUrl } from '#shared/pages/dashboard-url.ts';
import { dashboardTime, formatAmount, formatPhone } from '#shared/pages/format.ts';
import { html, type SafeHtml } from '#shared/pages/html.ts';
import { lineStateWords, operatorName } from '#shared/pages/messages.ts';

/**
 * The transactions list (issue 26, item 2): newest first, a page at a time, a GET form of filters
 * whose names the CSV export shares, so a filtered view is an address to bookmark, share or export.
 * Phone first: one compact line a transaction (amount, kind, status; then when, who, reference),
 * the search above it and the other filters folded under it.
 */
export const transactionWords = {
  fr: {
    types: {
      payment: 'Paiement',
      transfer: 'Transfert',
      escrow: 'Séquestre',
      refund: 'Remboursement',
      sms_credit: 'Crédit SMS',
    },
    statuses: { pending: 'En attente', success: 'Réussi', error: 'Non abouti' },
    states: lineStateWords.fr,
  },
  en: {
    types: {
      payment: 'Payment',
      transfer: 'Transfer',
      escrow: 'Escrow',
      refund: 'Refund',
      sms_credit: 'SMS credit',
    },
    statuses: { pending: 'Pending', success: 'Succeeded', error: 'Not completed' },
    states: lineStateWords.en,
  },
} satisfies Record<Language, unknown>;

/** How a line (or a payment request) ended, in its own word: expired, cancelled, declined… */
export const stateWord = (language: Language, line: Parameters<typeof lineState>[0]) =>
  transactionWords[language].states[lineState(line)];

const text = {
  fr: {
    title: 'Transactions',
    search: 'Rechercher',
    searchHint:
      'Nom du payeur ou du bénéficiaire, titre du lien de paiement, ce qui a été payé, référence de la commande ou du reçu, numéro ou identifiant',
    filters: 'Filtres',
    store: 'Boutique',
    type: 'Type',
    status: 'Statut',
    operator: 'Opérateur',
    any: 'Tous',
    from: 'Du',
    to: 'Au',
    datesHint: 'Au plus 90 jours ; par défaut les 30 derniers.',
    filter: 'Afficher',
    export: 'Exporter en CSV',
    none: 'Aucune transaction ne correspond.',
    total: (count: number) => `${count} transaction${count > 1 ? 's' : ''}`,
    next: 'Page suivante',
    previous: 'Page précédente',
    errorSummary: 'Il y a un problème',
    problems: {
      unknown: 'Ce choix n’existe pas : il est ignoré.',
      date: 'Saisissez une date au format AAAA-MM-JJ.',
      order: 'La date de début doit précéder la date de fin.',
      range: 'Choisissez au plus 90 jours.',
    },
    list: 'Liste des transactions',
    columns: {
      amount: 'Montant',
      type: 'Type',
      status: 'Statut',
      when: 'Date',
      counterpart: 'Payeur ou bénéficiaire',
      method: 'Moyen',
      reference: 'Référence',
      store: 'Boutique',
    },
  },
  en: {
    title: 'Transactions',
    search: 'Search',
    searchHint:
      'Payer’s or beneficiary’s name, payment link title, what was paid, order or receipt reference, number or id',
    filters: 'Filters',
    store: 'Store',
    type: 'Type',
    status: 'Status',
    operator: 'Operator',
    any: 'All',
    from: 'From',
    to: 'To',
    datesHint: 'At most 90 days; the last 30 by default.',
    filter: 'Show',
    export: 'Export as CSV',
    none: 'No transaction matches.',
    total: (count: number) => `${count} transaction${count > 1 ? 's' : ''}`,
    next: 'Next page',
    previous: 'Previous page',
    errorSummary: 'There is a problem',
    problems: {
      unknown: 'This choice does not exist: it is ignored.',
      date: 'Enter a date as YYYY-MM-DD.',
      order: 'The start date must come before the end date.',
      range: 'Choose at most 90 days.',
    },
    list: 'Transactions list',
    columns: {
      amount: 'Amount',
      type: 'Type',
      status: 'Status',
      when: 'Date',
      counterpart: 'Payer or recipient',
      method: 'Method',
      reference: 'Reference',
      store: 'Store',
    },
  },
} satisfies Record<Language, unknown>;

export interface TransactionsPageContext extends DashboardPageContext {
  pageUrl: string;
  filters: TransactionFilters;
  errors: readonly FilterError[];
  stores: readonly Store[];
  rows: readonly TransactionRow[];
  total?: number | undefined;
  hasNext: boolean;
  canExport: boolean;
}

/** The list's address with these filters (and another page, or none for the export). */
export function filterQuery(filters: TransactionFilters, page?: number): URLSearchParams {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries({
    store: filters.store,
    type: filters.type,
    status: filters.status,
    operator: filters.operator,
    from: filters.from,
    to: filters.to,
    q: filters.q,
  })) {
    if (value) query.set(name, value);
  }
  if (page !== undefined && page > 1) query.set('page', String(page));
  return query;
}

function withQuery(context: DashboardPageContext, path: string, query: URLSearchParams): string {
  const url = dashboardUrl(context, path);
  const search = query.toString();
  if (!search) return url;
  return `${url}${url.includes('?') ? '&' : '?'}${search}`;
}

/** When, in the store's time zone: "27/11/2026 à 14:05". */
export function whenIn(language: Language, store: Store | undefined, at: string): string {
  return dashboardTime(at, storeTimeZone(store ?? {}), language);
}

/** A payer's or beneficiary's number as people read it; anything else as it is. */
export const counterpartOf = (label: string, identifier: string) => {
  const number = readZoneNumber(identifier, null);
  const shown = number ? formatPhone(number.e164) : identifier;
  return label && label !== identifier && label !== number?.e164 ? `${label} · ${shown}` : shown;
};

/**
 * The list as a table: its columns from 1024 px (a desktop sees a screenful of lines), on a phone
 * each line a card of two lines (amount · kind · status, then when, who, how, the reference).
 */
function transactionsTable(context: TransactionsPageContext, stores: Map<string, Store>): SafeHtml {
  const t = text[context.language];
  const words = transactionWords[context.language];
  const columns: Column<TransactionRow>[] = [
    {
      header: t.columns.amount,
      kind: 'amount',
      phone: 'lead',
      cell: (row) =>
        html`<a href="${dashboardUrl(context, `/transactions${row.detailPath}`)}"><strong class="value-amount" data-testid="row-amount">${formatAmount(row.amount.amount, row.amount.currency)}</strong></a>`,
    },
    { header: t.columns.type, phone: 'lead', cell: (row) => words.types[row.type] },
    { header: t.columns.status, phone: 'lead', cell: (row) => stateWord(context.language, row) },
    {
      header: t.columns.when,
      phone: 'meta',
      cell: (row) => whenIn(context.language, stores.get(row.storeId), row.createdAt),
    },
    {
      header: t.columns.counterpart,
      phone: 'meta',
      cell: (row) => counterpartOf(row.counterpartLabel, row.counterpartIdentifier),
    },
    {
      header: t.columns.method,
      phone: 'meta',
      cell: (row) => operatorName(context.language, row.paymentMethod) ?? '',
    },
    {
      header: t.columns.reference,
      kind: 'id',
      phone: 'meta',
      cell: (row) => (row.reference ? idValue(row.reference) : ''),
    },
    ...(stores.size > 1
      ? [
          {
            header: t.columns.store,
            phone: 'meta' as const,
            cell: (row: TransactionRow) => stores.get(row.storeId)?.name ?? '',
          },
        ]
      : []),
  ];
  return table({
    caption: t.list,
    columns,
    rows: context.rows,
    testId: 'transactions',
    rowAttributes: (row) =>
      html` data-transaction-id="${row.id}" data-status="${row.status}" data-type="${row.type}"`,
  });
}

function select(
  name: string,
  label: string,
  anyLabel: string,
  options: readonly { value: string; label: string }[],
  chosen: string | undefined,
): SafeHtml {
  return html`<label class="field" for="${name}">${label}</label>
<select class="input" id="${name}" name="${name}">
<option value="">${anyLabel}</option>
${options.map((option) => html`<option value="${option.value}"${chosen === option.value ? html` selected` : ''}>${option.label}</option>`)}
</select>`;
}

export function transactionsPage(context: TransactionsPageContext): string {
  const t = text[context.language];
  const words = transactionWords[context.language];
  const { filters } = context;
  const stores = new Map(context.stores.map((store) => [store.id, store]));
  const folded = filters.store || filters.type || filters.status || filters.operator || context.errors.length;
  const errors = context.errors.map((error) => ({ field: error.field, message: t.problems[error.problem] }));
  const exportUrl = withQuery(context, '/transactions/export', filterQuery(filters));
  return dashboardTemplate(context, {
    section: 'transactions',
    title: t.title,
    pageUrl: context.pageUrl,
    content: html`<div class="content">
<h1>${t.title}</h1>
${errorSummary(t.errorSummary, errors)}
<form method="get" action="${dashboardUrl(context, '/transactions')}" role="search">
${context.languagePinned && html`<input type="hidden" name="lang" value="${context.language}">`}
<label class="field" for="q">${t.search}</label>
<p class="hint" id="q-hint">${t.searchHint}</p>
<input class="input" id="q" name="q" type="search" maxlength="100" value="${filters.q ?? ''}" aria-describedby="q-hint" autocomplete="off">
<details class="more-providers"${folded ? html` open` : ''}>
<summary>${t.filters}</summary>
${select(
  'store',
  t.store,
  t.any,
  context.stores.map((store) => ({ value: store.id, label: store.name })),
  filters.store,
)}
${select(
  'type',
  t.type,
  t.any,
  transactionTypes.map((type) => ({ value: type, label: words.types[type] })),
  filters.type,
)}
${select(
  'status',
  t.status,
  t.any,
  transactionStatuses.map((status) => ({ value: status, label: words.statuses[status] })),
  filters.status,
)}
${select(
  'operator',
  t.operator,
  t.any,
  operators.map((operator) => ({ value: operator, label: operatorName(context.language, operator) })),
  filters.operator,
)}
<p class="hint" id="dates-hint">${t.datesHint}</p>
<label class="field" for="from">${t.from}</label>
<input class="input" id="from" name="from" type="date" value="${filters.from}" aria-describedby="dates-hint">
<label class="field" for="to">${t.to}</label>
<input class="input" id="to" name="to" type="date" value="${filters.to}" aria-describedby="dates-hint">
</details>
<button class="button button-secondary" type="submit">${t.filter}</button>
</form>
${context.canExport && html`<p><a href="${exportUrl}" data-testid="export-link">${t.export}</a></p>`}
${context.total !== undefined && html`<p class="muted" data-testid="total">${t.total(context.total)}</p>`}
${context.rows.length === 0 ? html`<p>${t.none}</p>` : transactionsTable(context, stores)}
<p>${filters.page > 1 && html`<a href="${withQuery(context, '/transactions', filterQuery(filters, filters.page - 1))}">${t.previous}</a> `}${
      context.hasNext &&
      html`<a href="${withQuery(context, '/transactions', filterQuery(filters, filters.page + 1))}">${t.next}</a>`
    }</p>
</div>`,
  });
}
