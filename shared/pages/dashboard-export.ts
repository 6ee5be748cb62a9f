import type { Store } from '#shared/data/store.ts';
import type { Language } from '#shared/domain/languages.ts';
import type {
  ExportError,
  ExportFilters,
  ExportProblem,
  ExportSeparator,
} from '#shared/operations/transaction-export.ts';
import { errorSummary } from '#shared/pages/components.ts';
import { dashboardTemplate } from '#shared/pages/dashboard-template.ts';
import { type DashboardPageContext, dashboardUrl } from '#shared/pages/dashboard-url.ts';
import { html } from '#shared/pages/html.ts';
import { operatorName } from '#shared/pages/messages.ts';

/**
 * The export's form (issue 26, item 2): the window's days, the store and the separator (issue 35,
 * item 3: `;` chosen in French, `,` in English, for the spreadsheet's locale), then "Download", which
 * asks the same address with `download=1` for the file. A plain GET form: it works without
 * JavaScript, and the browser saves the file (`Content-Disposition: attachment`). Filters the list
 * passed on (type, status, operator, search) ride along as hidden fields and are named above the
 * button, so what is downloaded is what the list showed.
 */
const text = {
  fr: {
    title: 'Exporter (CSV)',
    intro:
      'Un fichier CSV (UTF-8) des transactions d’une période de 90 jours au plus, les plus récentes en premier : en-têtes en français, montants en francs, les sorties d’argent (remboursements, transferts, frais) en négatif, numéros de téléphone gardés tels quels.',
    separator: 'Séparateur',
    separators: {
      semicolon: 'Point-virgule (;)',
      comma: 'Virgule (,)',
    },
    separatorHints: {
      semicolon: 'Pour Excel ou LibreOffice en français : le fichier s’ouvre en colonnes.',
      comma: 'Pour Excel ou LibreOffice en anglais.',
    },
    limit: (max: string) => `Au plus ${max} lignes : pour davantage, choisissez une période plus courte.`,
    from: 'Du',
    to: 'Au',
    dayHint: 'Jour au format AAAA-MM-JJ',
    store: 'Point de vente',
    allStores: 'Tous les points de vente',
    filters: 'Filtres de la liste appliqués',
    download: 'Télécharger',
    back: 'Retour aux transactions',
    errorSummary: 'Il y a un problème',
    problems: {
      dayMalformed: 'Saisissez un jour qui existe, au format AAAA-MM-JJ.',
      toBeforeFrom: 'Le dernier jour doit être le même que le premier ou après.',
      windowTooLong: 'La période dépasse 90 jours : choisissez-en une plus courte.',
      unknownType: 'Ce type de transaction n’existe pas.',
      unknownStatus: 'Ce statut n’existe pas.',
      operatorMalformed: 'Ce moyen de paiement n’existe pas.',
      searchTooLong: 'La recherche est trop longue (64 caractères au plus).',
      unknownSeparator: 'Choisissez le point-virgule ou la virgule.',
      tooManyRows: (rows: string, max: string) =>
        `Cette période compte ${rows} transactions, plus que les ${max} d’un export : choisissez une période plus courte.`,
    },
  },
  en: {
    title: 'Export (CSV)',
    intro:
      'A CSV file (UTF-8) of the transactions of a period of at most 90 days, newest first: headers in English, amounts in francs, money out (refunds, transfers, fees) below zero, phone numbers kept as they are.',
    separator: 'Separator',
    separators: {
      semicolon: 'Semicolon (;)',
      comma: 'Comma (,)',
    },
    separatorHints: {
      semicolon: 'For Excel or LibreOffice in French (and other languages that write 1,5).',
      comma: 'For Excel or LibreOffice in English: the file opens in columns.',
    },
    limit: (max: string) => `At most ${max} rows: for more, choose a shorter period.`,
    from: 'From',
    to: 'To',
    dayHint: 'A day as YYYY-MM-DD',
    store: 'Point of sale',
    allStores: 'All points of sale',
    filters: 'Filters of the list applied',
    download: 'Download',
    back: 'Back to the transactions',
    errorSummary: 'There is a problem',
    problems: {
      dayMalformed: 'Enter a day that exists, as YYYY-MM-DD.',
      toBeforeFrom: 'The last day must be the first one or after it.',
      windowTooLong: 'The period is over 90 days: choose a shorter one.',
      unknownType: 'There is no such kind of transaction.',
      unknownStatus: 'There is no such status.',
      operatorMalformed: 'There is no such payment method.',
      searchTooLong: 'The search is too long (64 characters at most).',
      unknownSeparator: 'Choose the semicolon or the comma.',
      tooManyRows: (rows: string, max: string) =>
        `This period holds ${rows} transactions, more than the ${max} of one export: choose a shorter period.`,
    },
  },
} satisfies Record<Language, unknown>;

export interface ExportPageContext extends DashboardPageContext {
  pageUrl: string;
  filters: ExportFilters;
  /** The separator chosen (or the language's: `;` in French, `,` in English). */
  separator: ExportSeparator;
  stores: readonly Store[];
  errors: readonly ExportError[];
  maxRows: number;
  /** Set with the `tooManyRows` error: how many the window holds. */
  counted?: number | undefined;
}

const grouped = (language: Language, count: number) =>
  count.toLocaleString(language === 'fr' ? 'fr-FR' : 'en-GB').replace(/\u202f|\u00a0/g, ' ');

export function exportPage(context: ExportPageContext): string {
  const t = text[context.language];
  const { filters } = context;
  const message = (problem: ExportProblem) =>
    problem === 'tooManyRows'
      ? t.problems.tooManyRows(
          grouped(context.language, context.counted ?? 0),
          grouped(context.language, context.maxRows),
        )
      : t.problems[problem];
  // Errors of the hidden filters point at the button: there is no field of theirs to fix here.
  const visible = new Set(['from', 'to', 'store', 'separator']);
  const errors = context.errors.map((error) => ({
    field: visible.has(error.field) ? error.field : 'download',
    message: message(error.problem),
  }));
  const fieldError = (field: 'from' | 'to') => context.errors.find((error) => error.field === field);
  const dateField = (field: 'from' | 'to') => {
    const error = fieldError(field);
    // The day's format is said once, under the button (a date input shows its own picker), so
    // the button stays on a phone's first screen.
    return html`<label class="field" for="${field}">${t[field]}</label>
${error && html`<p class="field-error" id="${field}-error">${message(error.problem)}</p>`}
<input class="input" id="${field}" name="${field}" type="date" value="${filters[field]}" aria-describedby="day-hint${error ? ` ${field}-error` : ''}"${error ? html` aria-invalid="true"` : ''}>`;
  };
  const separatorError = context.errors.find((error) => error.field === 'separator');
  const hidden = { type: filters.type, status: filters.status, operator: filters.operator, q: filters.q };
  const applied = Object.entries(hidden).filter(([, value]) => value !== undefined);
  return dashboardTemplate(context, {
    section: 'transactions',
    title: t.title,
    pageUrl: context.pageUrl,
    content: html`<div class="content">
<h1>${t.title}</h1>
${errorSummary(t.errorSummary, errors)}
<form method="get" action="${dashboardUrl(context, '/transactions/export')}" novalidate>
${context.languagePinned && html`<input type="hidden" name="lang" value="${context.language}">`}
<input type="hidden" name="download" value="1">
${applied.map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)}
${dateField('from')}
${dateField('to')}
<label class="field" for="store">${t.store}</label>
<select class="input" id="store" name="store">
<option value="">${t.allStores}</option>
${context.stores.map((store) => html`<option value="${store.id}"${filters.store === store.id ? html` selected` : ''}>${store.name}</option>`)}
</select>
<fieldset${separatorError ? html` aria-describedby="separator-error"` : ''}>
<legend class="field">${t.separator}</legend>
${separatorError && html`<p class="field-error" id="separator-error">${message(separatorError.problem)}</p>`}
<div class="providers">
${(['semicolon', 'comma'] as const).map(
  (choice) =>
    html`<label class="provider"><input type="radio" id="${choice === 'semicolon' ? 'separator' : 'separator-comma'}" name="separator" value="${choice}"${context.separator === choice ? html` checked` : ''}><span><span class="provider-name">${t.separators[choice]}</span><br><span class="muted">${t.separatorHints[choice]}</span></span></label>`,
)}
</div>
</fieldset>
${applied.length > 0 && html`<p class="muted">${t.filters}: ${applied.map(([name, value]) => `${name} = ${name === 'operator' ? operatorName(context.language, value) : value}`).join(', ')}</p>`}
<button class="button" id="download" type="submit">${t.download}</button>
</form>
<p class="muted" id="day-hint">${t.dayHint}.</p>
<p class="muted">${t.intro} ${t.limit(grouped(context.language, context.maxRows))}</p>
<p><a href="${dashboardUrl(context, '/transactions')}">${t.back}</a></p>
</div>`,
  });
}
