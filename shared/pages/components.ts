import { html, type SafeHtml, trustedHtml } from '#shared/pages/html.ts';

/**
 * The dashboard's form and display components, after GOV.UK Frontend's (`components/<name>/
 * template.njk`): each takes its label, hint and error and derives the ids and `aria-describedby`
 * itself, so no page writes them by hand. Every value goes through the escaping `html`.
 *
 * Values shown in lists and tables are kept whole on a narrow phone: an amount never wraps
 * (`value-amount`), a label wraps between its words only (`value`), and an id stays on one line,
 * cut with an ellipsis, the whole of it in the element's `title` (`value-id`).
 */

export interface FieldError {
  field: string;
  message: string;
}

/** GOV.UK's error summary: what is wrong, at the top, each message a link to its field. */
export function errorSummary(title: string, errors: readonly FieldError[]): SafeHtml | undefined {
  if (errors.length === 0) return undefined;
  return html`<div class="alert" role="alert" aria-labelledby="error-summary-title" tabindex="-1">
<p id="error-summary-title"><strong>${title}</strong></p>
<ul>${errors.map((error) => html`<li><a href="#${error.field}">${error.message}</a></li>`)}</ul>
</div>`;
}

interface Question {
  name: string;
  label: string;
  hint?: string | undefined;
  error?: string | undefined;
}

const describedBy = (question: Question) =>
  [question.hint && `${question.name}-hint`, question.error && `${question.name}-error`]
    .filter(Boolean)
    .join(' ');

const hintAndError = (question: Question) =>
  html`${question.hint && html`<p class="hint" id="${question.name}-hint">${question.hint}</p>`}
${question.error && html`<p class="field-error" id="${question.name}-error">${question.error}</p>`}`;

/** A text input with its label above, its hint and its error. */
export function field(
  options: Question & { value?: string | undefined; attributes?: SafeHtml | undefined },
): SafeHtml {
  const described = describedBy(options);
  return html`<label class="field" for="${options.name}">${options.label}</label>
${hintAndError(options)}
<input class="input" id="${options.name}" name="${options.name}" value="${options.value ?? ''}"${options.attributes}${described && html` aria-describedby="${described}"`}${options.error && html` aria-invalid="true"`}>`;
}

export interface Choice {
  value: string;
  label: string;
}

/** A drop-down: `empty` is the first option's words (no choice) when a choice may be left out. */
export function select(
  options: Question & {
    choices: readonly Choice[];
    chosen?: string | undefined;
    empty?: string | undefined;
    attributes?: SafeHtml | undefined;
  },
): SafeHtml {
  const described = describedBy(options);
  return html`<label class="field" for="${options.name}">${options.label}</label>
${hintAndError(options)}
<select class="input" id="${options.name}" name="${options.name}"${options.attributes}${described && html` aria-describedby="${described}"`}${options.error && html` aria-invalid="true"`}>
${options.empty !== undefined && html`<option value="">${options.empty}</option>`}
${options.choices.map((choice) => html`<option value="${choice.value}"${options.chosen === choice.value ? html` selected` : ''}>${choice.label}</option>`)}
</select>`;
}

/**
 * Radios (one choice) or checkboxes (several) in a fieldset whose legend is the question. The first
 * input carries the field's id, so the error summary's link lands on it. A choice's label wraps
 * within the screen: a long code (a webhook's event name) may break after its `_` or `.`.
 */
export function choices(
  options: Question & {
    type: 'radio' | 'checkbox';
    choices: readonly (Choice & { name?: string; hint?: string })[];
    chosen: readonly string[];
  },
): SafeHtml {
  const described = describedBy(options);
  return html`<fieldset class="choices"${described && html` aria-describedby="${described}"`}>
<legend class="field">${options.label}</legend>
${hintAndError(options)}
${options.choices.map(
  (choice, index) =>
    html`<label class="choice"><input type="${options.type}" name="${choice.name ?? options.name}" value="${choice.value}"${index === 0 ? html` id="${options.name}"` : ''}${options.chosen.includes(choice.value) ? html` checked` : ''}><span class="choice-label">${breakableCode(choice.label)}${choice.hint && html`<br><span class="hint">${choice.hint}</span>`}</span></label>`,
)}
</fieldset>`;
}

export const radios = (options: Omit<Parameters<typeof choices>[0], 'type'>) =>
  choices({ ...options, type: 'radio' });
export const checkboxes = (options: Omit<Parameters<typeof choices>[0], 'type'>) =>
  choices({ ...options, type: 'checkbox' });

/** A code (`TRANSACTION_COMPLETED`) that may break after its `_` and `.` only, never inside a word. */
export function breakableCode(text: string): SafeHtml {
  return html`${text.split(/(?<=[_.])/).map((part, index) => html`${index > 0 ? trustedHtml('<wbr>') : ''}${part}`)}`;
}

/** An amount, kept on one line wherever it stands. */
export const amountValue = (text: string, testId?: string) =>
  html`<span class="value-amount"${testId ? html` data-testid="${testId}"` : ''}>${text}</span>`;

/**
 * An id (a transaction's, a key's): one line, cut with an ellipsis when the screen is narrow; the
 * whole id in its `title` and in the text itself, which selecting and copying take whole.
 */
export const idValue = (id: string) => html`<span class="value-id" title="${id}">${id}</span>`;

/** A summary list row: `value` a string (words that wrap between words) or prepared markup. */
export interface SummaryRow {
  key: string;
  value: SafeHtml | string;
  /** `amount` and `id` keep the value on one line (an id cut with an ellipsis). */
  kind?: 'amount' | 'id' | 'text' | undefined;
  testId?: string | undefined;
  /** An action on the row's value (change, remove), at its end. */
  action?: SafeHtml | undefined;
}

/**
 * GOV.UK's summary list: key and value side by side where the screen allows, the key above its
 * value on a phone, so neither has to squeeze into half of 360 px.
 */
export function summaryList(rows: readonly (SummaryRow | false | undefined)[], testId?: string): SafeHtml {
  return html`<dl class="summary-list"${testId ? html` data-testid="${testId}"` : ''}>${rows.map((row) => {
    if (!row) return '';
    const value =
      row.kind === 'amount' && typeof row.value === 'string'
        ? amountValue(row.value)
        : row.kind === 'id' && typeof row.value === 'string'
          ? idValue(row.value)
          : row.value;
    return html`<div class="summary-row"><dt>${row.key}</dt><dd${row.testId ? html` data-testid="${row.testId}"` : ''}>${value}</dd>${row.action && html`<dd class="summary-action">${row.action}</dd>`}</div>`;
  })}</dl>`;
}

export interface Column<Row> {
  header: string;
  cell: (row: Row) => SafeHtml | string;
  /** Amounts right-aligned and kept whole; ids on one line with an ellipsis. */
  kind?: 'amount' | 'id' | 'text' | undefined;
  /**
   * On a phone, where the row is a card: `lead` cells share its first line (amount · kind ·
   * status), `meta` cells its second, in smaller words, without their column's name; any other
   * cell stands on a line of its own after its column's name.
   */
  phone?: 'lead' | 'meta' | undefined;
}

/**
 * A table with column headers. From 1024 px it is a table; narrower, each row stands as a card
 * whose cells show their column's name before them (`data-label`), so a phone reads it without
 * scrolling sideways. `rowAttributes` marks a row (`data-transaction-id`) for tests and links.
 */
export function table<Row>(options: {
  caption: string;
  columns: readonly Column<Row>[];
  rows: readonly Row[];
  rowAttributes?: ((row: Row) => SafeHtml) | undefined;
  testId?: string | undefined;
}): SafeHtml {
  return html`<table class="data-table"${options.testId ? html` data-testid="${options.testId}"` : ''}>
<caption class="visually-hidden">${options.caption}</caption>
<thead><tr>${options.columns.map((column) => html`<th scope="col"${cellClass(column)}>${column.header}</th>`)}</tr></thead>
<tbody>${options.rows.map(
    (row) =>
      html`<tr${options.rowAttributes?.(row)}>${options.columns.map(
        (column) => html`<td data-label="${column.header}"${cellClass(column)}>${column.cell(row)}</td>`,
      )}</tr>`,
  )}</tbody>
</table>`;
}

function cellClass(column: Column<never>): SafeHtml | string {
  const classes = [column.kind && `cell-${column.kind}`, column.phone && `cell-${column.phone}`].filter(
    Boolean,
  );
  return classes.length ? html` class="${classes.join(' ')}"` : '';
}

/** Previous and next pages, as links (a GET list: each page an address). */
export function pager(options: {
  label: string;
  previous?: { href: string; text: string } | undefined | false;
  next?: { href: string; text: string } | undefined | false;
}): SafeHtml | undefined {
  if (!options.previous && !options.next) return undefined;
  return html`<nav class="pager" aria-label="${options.label}">${options.previous && html`<a rel="prev" href="${options.previous.href}">← ${options.previous.text}</a>`}${options.next && html`<a rel="next" href="${options.next.href}">${options.next.text} →</a>`}</nav>`;
}

/** GOV.UK's confirmation panel: what was done, in a few words, at the top of the next page. */
export function confirmationPanel(options: {
  title: string;
  body?: SafeHtml | string | undefined;
  testId?: string | undefined;
}): SafeHtml {
  return html`<div class="confirmation-panel" role="status"${options.testId ? html` data-testid="${options.testId}"` : ''}>
<h2>${options.title}</h2>
${options.body && html`<p>${options.body}</p>`}
</div>`;
}
