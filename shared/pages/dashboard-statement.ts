import { createHash } from 'node:crypto';
import type { Store } from '#shared/data/store.ts';
import { storeTimeZone } from '#shared/domain/country-time-zones.ts';
import type { Language } from '#shared/domain/languages.ts';
import { type KindTotals, netOf, statementKinds } from '#shared/domain/statement.ts';
import { kindNames, type Statement } from '#shared/operations/statements.ts';
import { dashboardContentSecurityPolicy, readableTime } from '#shared/pages/dashboard-chrome.ts';
import { dashboardTemplate } from '#shared/pages/dashboard-template.ts';
import { type DashboardPageContext, dashboardUrl } from '#shared/pages/dashboard-url.ts';
import { deBefore, formatAmount } from '#shared/pages/format.ts';
import { html, type SafeHtml, trustedHtml } from '#shared/pages/html.ts';

/**
 * A month's statement (issue 34, item 5), the printable card's way: a page of its own rather than
 * the dashboard's layout, with a stylesheet laid out for A4 paper (`@page size: A4`) that hides on
 * paper what is for the screen (the links between pages, the form that chooses the month and the
 * store, the download). No script: the browser's own Print prints it. Wide tables scroll inside
 * their own box on a phone.
 */
const statementStyle = `
.statement{max-width:210mm}
.statement a[aria-current]{font-weight:700}
.statement h1{font-size:1.35rem;margin:.2em 0}
.statement h2{font-size:1.05rem;margin:1.2em 0 .4em}
.statement p{margin:.4em 0}
.statement form{display:flex;flex-wrap:wrap;gap:8px 16px;align-items:flex-end;margin:12px 0}
.statement label{display:block;font-weight:600;margin-bottom:4px}
.statement select,.statement button{font:inherit;min-height:44px;padding:6px 10px;border:1px solid #3d4650;border-radius:6px;background:#fff;color:#111;max-width:100%}
.statement button{background:#0f766e;border-color:#0f766e;color:#fff;cursor:pointer}
.statement .error{color:#a4001d;font-weight:600}
.statement .sandbox{background:#fff3cd;border:1px solid #7a5d00;padding:4px 8px}
.statement .scroll{overflow-x:auto}
.statement table{border-collapse:collapse;width:100%;font-size:.9rem}
.statement caption{text-align:left;font-weight:700;font-size:1.05rem;padding:12px 0 6px}
.statement th,.statement td{padding:4px 6px;border-bottom:1px solid #c5ccd3;text-align:left;vertical-align:top}
.statement .n{text-align:right;white-space:nowrap;font-variant-numeric:tabular-nums}
.statement tbody td:first-child{white-space:nowrap}
.statement tr.balance th,.statement tr.balance td{font-weight:700;border-top:2px solid #111}
.statement .check{font-weight:600}
@page{size:A4;margin:12mm}
@media print{.statement-screen{display:none}.statement{max-width:none;padding:0}.statement table{font-size:9pt}.statement tr{break-inside:avoid}.statement thead{display:table-header-group}.statement .scroll{overflow:visible}}
`.trim();

const sha256 = (text: string) => createHash('sha256').update(text).digest('base64');

/** The dashboard's policy with this page's stylesheet allowed too, by its hash. */
export const statementContentSecurityPolicy = dashboardContentSecurityPolicy.replace(
  /style-src [^;]+/,
  (styles) => `${styles} 'sha256-${sha256(statementStyle)}'`,
);

const text = {
  fr: {
    title: (month: string, of: string) => `Relevé ${deBefore(month)} – ${of}`,
    heading: (month: string) => `Relevé de compte – ${month}`,
    wholeBusiness: 'Toute l’entreprise',
    allStores: (count: number) => `tous les points de vente (${count})`,
    store: 'Point de vente',
    month: 'Mois',
    show: 'Voir le relevé',
    csv: 'Télécharger le relevé en CSV',
    lines: 'Les opérations une à une : exporter les transactions du mois',
    how: 'Pour l’imprimer : l’impression du navigateur, sur du papier A4.',
    badMonth: 'Choisissez un mois parmi les 24 derniers.',
    period: (first: string, last: string) =>
      `Du ${first} au ${last}, en jours UTC (ceux de la liste des transactions).`,
    made: (at: string) => `Établi le ${at}.`,
    summary: 'Résumé du mois',
    byDay: 'Mouvements par jour',
    noMovement: 'Aucun mouvement ce mois-ci.',
    columns: {
      day: 'Date',
      item: 'Libellé',
      count: 'Nombre',
      in: 'Entrées',
      out: 'Sorties',
      fee: 'Frais',
      net: 'Net',
      balance: 'Solde',
    },
    opening: 'Solde d’ouverture',
    closing: 'Solde de clôture',
    check: (opening: string, moved: string, closing: string) =>
      `Solde d’ouverture ${opening} + mouvements ${moved} = solde de clôture ${closing}.`,
    balancesNote:
      'Les soldes comprennent l’argent en séquestre et celui réservé pour un transfert en attente de l’opérateur.',
    sandbox: 'Mode test — aucun argent réel',
    scrollable: (caption: string) => `${caption} (faire défiler)`,
  },
  en: {
    title: (month: string, of: string) => `Statement for ${month} – ${of}`,
    heading: (month: string) => `Account statement – ${month}`,
    wholeBusiness: 'The whole business',
    allStores: (count: number) => `every store (${count})`,
    store: 'Store',
    month: 'Month',
    show: 'Show the statement',
    csv: 'Download the statement as CSV',
    lines: 'Each movement: export the month’s transactions',
    how: 'To print it: the browser’s Print, on A4 paper.',
    badMonth: 'Choose one of the last 24 months.',
    period: (first: string, last: string) =>
      `From ${first} to ${last}, in UTC days (the transaction list’s).`,
    made: (at: string) => `Made on ${at}.`,
    summary: 'The month in short',
    byDay: 'Movements by day',
    noMovement: 'No movement this month.',
    columns: {
      day: 'Date',
      item: 'Item',
      count: 'Count',
      in: 'In',
      out: 'Out',
      fee: 'Fees',
      net: 'Net',
      balance: 'Balance',
    },
    opening: 'Opening balance',
    closing: 'Closing balance',
    check: (opening: string, moved: string, closing: string) =>
      `Opening balance ${opening} + movements ${moved} = closing balance ${closing}.`,
    balancesNote:
      'Balances include money held in escrow and money reserved for a transfer the provider has not answered yet.',
    sandbox: 'Test mode — no real money',
    scrollable: (caption: string) => `${caption} (scrolls)`,
  },
} satisfies Record<Language, unknown>;

export interface StatementPageContext extends DashboardPageContext {
  businessName: string;
  stores: readonly Store[];
  months: readonly string[];
  /** What was asked (the form shows it back). */
  chosen: { month: string; storeId: string | undefined };
  /** The statement; none when the month asked for is not one of `months`. */
  statement: Statement | undefined;
  /** The member may export the transactions (the link to the month's lines). */
  canExport: boolean;
  now: Date;
}

const monthName = (month: string, language: Language) =>
  new Intl.DateTimeFormat(language === 'fr' ? 'fr-FR' : 'en-GB', {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(`${month}-01T00:00:00Z`));

const dayName = (day: string, language: Language) =>
  new Intl.DateTimeFormat(language === 'fr' ? 'fr-FR' : 'en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(`${day}T00:00:00Z`));

/** A query string of the page's own choices, the language kept when pinned. */
function statementUrl(context: StatementPageContext, extra: Record<string, string> = {}): string {
  const query = new URLSearchParams({ month: context.chosen.month, ...extra });
  if (context.chosen.storeId) query.set('store', context.chosen.storeId);
  const url = `${dashboardUrl(context, '/statements')}`;
  return `${url}${url.includes('?') ? '&' : '?'}${query.toString()}`;
}

function chooser(context: StatementPageContext): SafeHtml {
  const t = text[context.language];
  const bad = context.statement === undefined;
  return html`<form method="get" action="${context.baseUrl}/dashboard/statements">
${context.languagePinned && html`<input type="hidden" name="lang" value="${context.language}">`}
<div><label for="store">${t.store}</label>
<select id="store" name="store">
<option value=""${context.chosen.storeId === undefined ? trustedHtml(' selected') : ''}>${t.wholeBusiness}</option>
${context.stores.map((store) => html`<option value="${store.id}"${store.id === context.chosen.storeId ? trustedHtml(' selected') : ''}>${store.name}</option>`)}
</select></div>
<div><label for="month">${t.month}</label>
${bad && html`<p class="error" id="month-error">${t.badMonth}</p>`}
<select id="month" name="month"${bad ? trustedHtml(' aria-invalid="true" aria-describedby="month-error"') : ''}>
${context.months.map((month) => html`<option value="${month}"${month === context.chosen.month ? trustedHtml(' selected') : ''}>${monthName(month, context.language)}</option>`)}
</select></div>
<button type="submit">${t.show}</button>
</form>`;
}

const money = (cents: number, currency: string) => formatAmount(cents, currency);

/** A row's figures; fees as money taken (`0 - fee`: no fee reads 0, never −0). */
function amountCells(totals: KindTotals, currency: string): SafeHtml {
  return html`<td class="n">${String(totals.count)}</td><td class="n">${money(totals.in, currency)}</td><td class="n">${money(totals.out, currency)}</td><td class="n">${money(0 - totals.fee, currency)}</td><td class="n">${money(netOf(totals), currency)}</td>`;
}

function summaryTable(context: StatementPageContext, statement: Statement): SafeHtml {
  const t = text[context.language];
  const c = t.columns;
  const currency = statement.currency;
  return html`<div class="scroll" role="region" tabindex="0" aria-label="${t.scrollable(t.summary)}">
<table data-testid="statement-summary">
<caption>${t.summary}</caption>
<thead><tr><th scope="col">${c.item}</th><th scope="col" class="n">${c.count}</th><th scope="col" class="n">${c.in}</th><th scope="col" class="n">${c.out}</th><th scope="col" class="n">${c.fee}</th><th scope="col" class="n">${c.net}</th></tr></thead>
<tbody>
<tr class="balance"><th scope="row">${t.opening}</th><td></td><td></td><td></td><td></td><td class="n" data-testid="statement-opening">${money(statement.opening, currency)}</td></tr>
${statementKinds.map((kind) => html`<tr data-kind="${kind}"><th scope="row">${kindNames[context.language][kind]}</th>${amountCells(statement.kinds[kind], currency)}</tr>`)}
<tr class="balance"><th scope="row">${t.closing}</th><td></td><td></td><td></td><td></td><td class="n" data-testid="statement-closing">${money(statement.closing, currency)}</td></tr>
</tbody>
</table>
</div>`;
}

function daysTable(context: StatementPageContext, statement: Statement): SafeHtml {
  const t = text[context.language];
  const c = t.columns;
  const currency = statement.currency;
  if (statement.lines.length === 0) return html`<p>${t.noMovement}</p>`;
  return html`<div class="scroll" role="region" tabindex="0" aria-label="${t.scrollable(t.byDay)}">
<table data-testid="statement-days">
<caption>${t.byDay}</caption>
<thead><tr><th scope="col">${c.day}</th><th scope="col">${c.item}</th><th scope="col" class="n">${c.count}</th><th scope="col" class="n">${c.in}</th><th scope="col" class="n">${c.out}</th><th scope="col" class="n">${c.fee}</th><th scope="col" class="n">${c.net}</th><th scope="col" class="n">${c.balance}</th></tr></thead>
<tbody>
${statement.lines.map((line, index) => {
  const endOfDay = statement.lines[index + 1]?.day !== line.day;
  return html`<tr data-day="${line.day}" data-kind="${line.kind}"><td>${line.day}</td><td>${kindNames[context.language][line.kind]}</td>${amountCells(line.totals, currency)}<td class="n">${endOfDay ? money(statement.balances.get(line.day) ?? 0, currency) : ''}</td></tr>`;
})}
</tbody>
</table>
</div>`;
}

function statementBody(context: StatementPageContext, statement: Statement): SafeHtml {
  const t = text[context.language];
  const currency = statement.currency;
  const of = statement.store ? statement.store.name : t.allStores(context.stores.length);
  return html`<h1>${t.heading(monthName(statement.month, context.language))}</h1>
<p><strong>${context.businessName}</strong> — ${of}</p>
<p class="muted">${t.period(dayName(statement.firstDay, context.language), dayName(statement.lastDay, context.language))} ${t.made(readableTime(context.now.toISOString(), { language: context.language, timeZone: context.timeZone ?? storeTimeZone(statement.store ?? statement.stores[0] ?? {}) }))}</p>
${summaryTable(context, statement)}
<p class="check" data-testid="statement-check">${t.check(money(statement.opening, currency), money(statement.closing - statement.opening, currency), money(statement.closing, currency))}</p>
<p class="muted">${t.balancesNote}</p>
${daysTable(context, statement)}`;
}

export function statementPage(context: StatementPageContext): string {
  const t = text[context.language];
  const _other: Language = context.language === 'fr' ? 'en' : 'fr';
  const statement = context.statement;
  const of = context.chosen.storeId
    ? (context.stores.find((store) => store.id === context.chosen.storeId)?.name ?? '')
    : t.wholeBusiness;
  const exportUrl = statement
    ? `${dashboardUrl(context, '/transactions/export')}${context.languagePinned ? '&' : '?'}${new URLSearchParams(
        {
          from: statement.firstDay,
          to: statement.lastDay,
          ...(context.chosen.storeId ? { store: context.chosen.storeId } : {}),
        },
      ).toString()}`
    : '';
  const sandbox = process.env.SANDBOX === 'true';
  return dashboardTemplate(context, {
    section: 'statements',
    title: t.title(monthName(context.chosen.month, context.language), of),
    pageUrl: statementUrl(context),
    pageStyle: statementStyle,
    content: html`<div class="content statement">
<div class="statement-screen">
${chooser(context)}
${
  statement &&
  html`<p><a href="${statementUrl(context, { format: 'csv' })}" download>${t.csv}</a>${context.canExport && html` · <a href="${exportUrl}">${t.lines}</a>`}</p>
<p class="muted">${t.how}</p>`
}
</div>
${sandbox && html`<p class="sandbox" role="note">${t.sandbox}</p>`}
${statement ? statementBody(context, statement) : html`<h1>${t.heading(t.month)}</h1><p class="error">${t.badMonth}</p>`}
</div>`,
  });
}
