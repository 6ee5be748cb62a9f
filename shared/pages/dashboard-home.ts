import type { Membership } from '#shared/data/membership.ts';
import { moneyMovements } from '#shared/data/transaction-record.ts';
import { roleAllows } from '#shared/domain/dashboard-roles.ts';
import type { Language } from '#shared/domain/languages.ts';
import {
  alwaysShownLines,
  lineKinds,
  type ReconciliationLine,
  reconcile,
  reconciliationLines,
} from '#shared/domain/statement.ts';
import type { ActingMember } from '#shared/operations/dashboard-access.ts';
import type {
  BusinessOverview,
  Changes,
  HomeMoney,
  MoneyTotals,
  StoreMoney,
} from '#shared/operations/dashboard-overview.ts';
import type { PeriodChange } from '#shared/operations/statements.ts';
import { kindNames } from '#shared/operations/statements.ts';
import { dashboardTemplate } from '#shared/pages/dashboard-template.ts';
import { postForm, roleNames } from '#shared/pages/dashboard-text.ts';
import { stateWord } from '#shared/pages/dashboard-transactions.ts';
import { type DashboardPageContext, dashboardUrl, transactionPath } from '#shared/pages/dashboard-url.ts';
import { dayBarChart } from '#shared/pages/day-chart.ts';
import { dashboardTime, formatAmount } from '#shared/pages/format.ts';
import { html, type SafeHtml } from '#shared/pages/html.ts';

const money = {
  fr: {
    available: 'Solde disponible',
    held: 'En séquestre',
    reserved: 'Réservé (envois en cours)',
    today: 'Aujourd’hui',
    lastDays: '30 derniers jours',
    movements: { collected: 'Encaissé', refunded: 'Remboursé', paidOut: 'Envoyé' },
    business: 'Toute l’entreprise',
    perDay: 'Encaissé par jour',
    chartTitle: (name: string) => `Encaissé par jour, 30 derniers jours : ${name}`,
    utcDays: 'Jours comptés de minuit à minuit UTC.',
    latest: 'Dernières transactions',
    latestNone: 'Aucune transaction ces 30 derniers jours.',
    allTransactions: 'Voir tout l’historique',
    date: 'Date',
    transaction: 'Transaction',
    amount: 'Montant',
    types: {
      payment: 'Paiement',
      transfer: 'Envoi',
      escrow: 'Séquestre libéré',
      refund: 'Remboursement',
      sms_credit: 'Crédit SMS',
    },
    details: 'Le compte',
    reconciliation: 'Du solde au début au solde à la fin',
    opening: 'Solde au début',
    closing: 'Solde à la fin',
    change: 'Variation du solde',
    balanceHint:
      'Soldes : disponible, en séquestre et réservé ensemble. Frais : ceux de tous les mouvements de la période.',
    lines: { collected: 'Encaissé', fees: 'Frais' },
  },
  en: {
    available: 'Available balance',
    held: 'Held in escrow',
    reserved: 'Reserved (transfers under way)',
    today: 'Today',
    lastDays: 'Last 30 days',
    movements: { collected: 'Collected', refunded: 'Refunded', paidOut: 'Paid out' },
    business: 'The whole business',
    perDay: 'Collected per day',
    chartTitle: (name: string) => `Collected per day, last 30 days: ${name}`,
    utcDays: 'Days counted from midnight to midnight UTC.',
    latest: 'Latest transactions',
    latestNone: 'No transactions in the last 30 days.',
    allTransactions: 'See the whole history',
    date: 'Date',
    transaction: 'Transaction',
    amount: 'Amount',
    types: {
      payment: 'Payment',
      transfer: 'Transfer',
      escrow: 'Escrow released',
      refund: 'Refund',
      sms_credit: 'SMS credit',
    },
    details: 'The account',
    reconciliation: 'From the opening balance to the closing one',
    opening: 'Opening balance',
    closing: 'Closing balance',
    change: 'Change in balance',
    balanceHint:
      'Balances: available, held in escrow and reserved together. Fees: those of every movement of the period.',
    lines: { collected: 'Collected', fees: 'Fees' },
  },
} satisfies Record<Language, unknown>;

const text = {
  fr: {
    title: 'Tableau de bord',
    role: 'Votre rôle',
    level: 'Niveau de vérification',
    apiAccess: 'Accès à l’API',
    enabled: 'Activé',
    disabled: 'Pas encore activé',
    ceiling: 'Plafond d’encaissement du mois',
    unlimited: 'Aucun plafond',
    collected: 'Encaissé ce mois-ci',
    verify: 'Vérifier votre identité',
    verifyWhy: 'Vérifiez votre identité pour activer l’API et relever votre plafond d’encaissement.',
    steps: 'Vos premiers pas',
    stepsIntro: 'Ce qui reste avant de recevoir et de retirer votre premier paiement :',
    stepDone: 'Fait',
    stepVerifyWait: 'Vérification d’identité : notre équipe vous contactera.',
    stepCollect: 'Encaisser un premier paiement : créer un lien de paiement',
    stepOut: 'Retirer votre argent sur votre compte mobile money ou bancaire',
    businesses: 'Changer d’entreprise',
    signOut: 'Se déconnecter',
    signOutEverywhere: 'Se déconnecter partout',
    signOutEverywhereHint: 'Ferme toutes vos sessions, sur tous vos appareils.',
    ...money.fr,
  },
  en: {
    title: 'Dashboard',
    role: 'Your role',
    level: 'Verification level',
    apiAccess: 'API access',
    enabled: 'Enabled',
    disabled: 'Not enabled yet',
    ceiling: 'Collection ceiling this month',
    unlimited: 'No ceiling',
    collected: 'Collected this month',
    verify: 'Verify your identity',
    verifyWhy: 'Verify your identity to enable the API and raise your collection ceiling.',
    steps: 'Your first steps',
    stepsIntro: 'What stands between you and your first payment, received and taken out:',
    stepDone: 'Done',
    stepVerifyWait: 'Identity check: our team will contact you.',
    stepCollect: 'Take a first payment: make a payment link',
    stepOut: 'Withdraw your money to your mobile money or bank account',
    businesses: 'Switch business',
    signOut: 'Sign out',
    signOutEverywhere: 'Sign out everywhere',
    signOutEverywhereHint: 'Ends all your sessions, on every device.',
    ...money.en,
  },
} satisfies Record<Language, unknown>;

type Text = (typeof text)[Language];

/**
 * Collected, refunded and paid out, today and over 30 days: two short lists of label and amount,
 * which read on a phone without a table's columns.
 */
function totals(
  language: Language,
  testId: string,
  figures: { today: MoneyTotals; lastDays: MoneyTotals; currency: string; change: Changes },
): SafeHtml {
  const t = text[language];
  const period = (title: string, key: 'today' | 'last-days', money: MoneyTotals, change: PeriodChange) =>
    html`<h3>${title}</h3>
<dl class="facts">${moneyMovements.map(
      (movement) =>
        html`<dt>${t.movements[movement]}</dt><dd data-testid="${key}-${movement}">${formatAmount(money[movement].cents, figures.currency)}</dd>`,
    )}</dl>
${reconciliation(t, language, key, change, figures.currency)}`;
  return html`<div data-testid="${testId}">${period(t.today, 'today', figures.today, figures.change.today)}${period(t.lastDays, 'last-days', figures.lastDays, figures.change.lastDays)}</div>`;
}

/** An amount with its sign, money in above zero and money out below (`+1 500 F CFA`, `−300 F CFA`). */
const signed = (cents: number, currency: string) =>
  cents > 0
    ? `+${formatAmount(cents, currency)}`
    : cents < 0
      ? `−${formatAmount(-cents, currency)}`
      : formatAmount(0, currency);

/**
 * A period's money reconciled, as the month's statement counts it: the balance at its start, what
 * was collected, the fees, the refunds, the transfers, the withdrawals (and SMS bought, escrows
 * paid back, test money when they moved), the change they add up to, and the balance at its end.
 * Each amount carries its cents for the tests that add them up.
 */
function reconciliation(
  t: Text,
  language: Language,
  key: string,
  change: PeriodChange,
  currency: string,
): SafeHtml {
  const lines = reconcile(change.kinds);
  const label = (line: ReconciliationLine) =>
    line === 'collected' || line === 'fees' ? t.lines[line] : kindNames[language][lineKinds[line]];
  const shown = reconciliationLines.filter((line) => alwaysShownLines.includes(line) || lines[line] !== 0);
  const row = (testId: string, label: string, cents: number, amount: string) =>
    html`<dt>${label}</dt><dd class="nowrap" data-testid="${testId}" data-cents="${String(cents)}">${amount}</dd>`;
  return html`<h4>${t.reconciliation}</h4>
<dl class="facts" data-testid="${key}-reconciliation">
${row(`${key}-opening`, t.opening, change.opening, formatAmount(change.opening, currency))}
${shown.map((line) => row(`${key}-line-${line}`, label(line), lines[line], signed(lines[line], currency)))}
${row(`${key}-change`, t.change, change.closing - change.opening, signed(change.closing - change.opening, currency))}
${row(`${key}-closing`, t.closing, change.closing, formatAmount(change.closing, currency))}
</dl>`;
}

function storeSection(context: { language: Language }, money: StoreMoney, index: number): SafeHtml {
  const t = text[context.language];
  const { store, amounts } = money;
  const currency = store.currency;
  return html`<section aria-labelledby="store-${index}" data-testid="store-money" data-store-id="${store.id}">
<h2 id="store-${index}">${store.name}</h2>
<p class="eyebrow">${t.available}</p>
<p class="amount" data-testid="available">${formatAmount(amounts.available, currency)}</p>
<dl class="facts">
<dt>${t.held}</dt><dd data-testid="held">${formatAmount(amounts.held, currency)}</dd>
<dt>${t.reserved}</dt><dd data-testid="reserved">${formatAmount(amounts.reserved, currency)}</dd>
</dl>
${totals(context.language, 'store-totals', { ...money, currency })}
<h3>${t.perDay}</h3>
${dayBarChart({ language: context.language, id: `chart-${index}`, title: t.chartTitle(store.name), valueLabel: t.movements.collected, days: money.collectedByDay, currency })}
</section>`;
}

function latestTable(context: DashboardPageContext, latest: HomeMoney['latest']): SafeHtml {
  const t = text[context.language];
  if (latest.length === 0) return html`<p data-testid="latest">${t.latestNone}</p>`;
  return html`<table class="tests" data-testid="latest">
<thead><tr><th scope="col">${t.date}</th><th scope="col">${t.transaction}</th><th scope="col">${t.amount}</th></tr></thead>
<tbody>${latest.map((line) => {
    const counterpart = line.counterpartLabel || line.counterpartIdentifier;
    return html`<tr data-testid="latest-line" data-transaction-id="${line.id}"><td>${dashboardTime(line.createdAt, line.timeZone, context.language)}</td><td><a href="${dashboardUrl(context, transactionPath(line))}">${t.types[line.type]}</a> · ${stateWord(context.language, line)}${counterpart ? html`<br><span class="muted">${counterpart}</span>` : ''}</td><td class="nowrap" data-testid="latest-amount">${formatAmount(line.amount.amount, line.currency)}</td></tr>`;
  })}</tbody>
</table>`;
}

/**
 * A new business's way to its first payment, in the first screen until every step is done: its
 * identity checked (the form that starts it, for whom may), a first payment taken (a payment link),
 * money taken out (a withdrawal to the business's own account, or any payout). A
 * step is done when the level is 1, and when the last 30 days show a collection, and a payout.
 */
function firstSteps(
  context: DashboardPageContext & { csrfToken: string; overview: BusinessOverview; money: HomeMoney },
  canVerify: boolean,
): SafeHtml | undefined {
  const t = text[context.language];
  const totals = context.money.business.map((figures) => figures.lastDays);
  const done = {
    verify: context.overview.verificationLevel >= 1,
    collect: totals.some((figures) => figures.collected.count > 0),
    out: totals.some((figures) => figures.paidOut.count > 0),
  };
  if (done.verify && done.collect && done.out) return undefined;
  const step = (name: keyof typeof done, todo: SafeHtml | string, label: string) =>
    html`<li data-step="${name}" data-done="${String(done[name])}">${done[name] ? html`${label} : <strong>${t.stepDone}</strong>` : todo}</li>`;
  const verify = canVerify
    ? html`<p>${t.verifyWhy}</p>${postForm(dashboardUrl(context, '/verification'), context.csrfToken, html`<button class="button" type="submit">${t.verify}</button>`)}`
    : t.stepVerifyWait;
  return html`<section aria-labelledby="first-steps" data-testid="first-steps">
<h2 id="first-steps">${t.steps}</h2>
<p>${t.stepsIntro}</p>
<ol class="steps">
${step('verify', verify, t.verify)}
${step('collect', html`<a href="${dashboardUrl(context, '/payment-links/new')}">${t.stepCollect}</a>`, t.stepCollect)}
${step('out', html`<a href="${dashboardUrl(context, '/withdrawals')}">${t.stepOut}</a>`, t.stepOut)}
</ol>
</section>`;
}

/**
 * `/dashboard`: the money first (each store's available balance, what is held in escrow and
 * reserved, today's and the last 30 days' collected, refunded and paid-out totals with a chart of
 * the days, the business's totals when it has several stores, the 10 latest transactions), then
 * the business the session acts for: the role, verification level, API access and the month's
 * collection ceiling with what is used of it; the ways to the other businesses, the identity
 * check (for whom may do it) and out (the team is in the links above, with every section).
 */
export function dashboardHomePage(
  context: DashboardPageContext & {
    csrfToken: string;
    member: ActingMember;
    overview: BusinessOverview;
    money: HomeMoney;
    memberships: readonly Membership[];
  },
): string {
  const t = text[context.language];
  const { member, overview, money } = context;
  const canVerify =
    overview.identityCheckOffered && overview.verificationLevel === 0 && roleAllows(member.role, 'verify');
  return dashboardTemplate(
    { ...context, role: context.role ?? member.role },
    {
      section: 'home',
      title: `${t.title} · ${member.businessName}`,
      pageUrl: `${context.baseUrl}/dashboard`,
      content: html`<div class="content">
<p class="eyebrow">${t.title}</p>
<h1 data-testid="business-name" data-business-id="${member.businessId}">${member.businessName}</h1>
${firstSteps(context, canVerify)}
${money.stores.map((store, index) => storeSection(context, store, index))}
${
  money.stores.length > 1 &&
  html`<section aria-labelledby="business-totals"><h2 id="business-totals">${t.business}</h2>${money.business.map((figures) => totals(context.language, 'business-totals', figures))}</section>`
}
<p class="hint">${t.utcDays} ${t.balanceHint}</p>
<section aria-labelledby="latest-title">
<h2 id="latest-title">${t.latest}</h2>
${latestTable(context, money.latest)}
<p><a href="${dashboardUrl(context, '/transactions')}">${t.allTransactions}</a></p>
</section>
<h2>${t.details}</h2>
<dl class="facts" data-testid="overview">
<dt>${t.role}</dt><dd data-testid="role">${roleNames[context.language][member.role]}</dd>
<dt>${t.level}</dt><dd data-testid="verification-level">${String(overview.verificationLevel)}</dd>
<dt>${t.apiAccess}</dt><dd data-testid="api-access">${overview.apiAccessEnabled ? t.enabled : t.disabled}</dd>
<dt>${t.ceiling}</dt><dd data-testid="ceiling">${overview.ceiling === null ? t.unlimited : formatAmount(overview.ceiling)}</dd>
<dt>${t.collected}</dt><dd data-testid="collected">${formatAmount(overview.collected)}</dd>
</dl>
${context.memberships.length > 1 && html`<a class="button button-secondary" href="${dashboardUrl(context, '/businesses')}">${t.businesses}</a>`}
${postForm(dashboardUrl(context, '/sign-out'), context.csrfToken, html`<button class="button button-decline" type="submit">${t.signOut}</button>`)}
${postForm(dashboardUrl(context, '/sign-out-everywhere'), context.csrfToken, html`<button class="button button-decline" type="submit" aria-describedby="sign-out-everywhere-hint">${t.signOutEverywhere}</button><p class="hint" id="sign-out-everywhere-hint">${t.signOutEverywhereHint}</p>`)}
</div>`,
    },
  );
}
