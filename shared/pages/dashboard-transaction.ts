import { lineState } from '#shared/data/transaction-record.ts';
import { type MemberRole, roleAllows } from '#shared/domain/dashboard-roles.ts';
import type { Language } from '#shared/domain/languages.ts';
import type { RefundPreview, RefundProblem } from '#shared/operations/dashboard-payment-actions.ts';
import {
  actionablePayment,
  type TransactionDetail,
  transactionPath,
} from '#shared/operations/dashboard-transactions.ts';
import { amountValue, errorSummary, idValue } from '#shared/pages/components.ts';
import { csrfField } from '#shared/pages/dashboard-chrome.ts';
import { confirmationPage, doneNotice } from '#shared/pages/dashboard-confirmation.ts';
import { dashboardTemplate } from '#shared/pages/dashboard-template.ts';
import { postForm } from '#shared/pages/dashboard-text.ts';
import { counterpartOf, stateWord, transactionWords, whenIn } from '#shared/pages/dashboard-transactions.ts';
import { type DashboardPageContext, dashboardUrl } from '#shared/pages/dashboard-url.ts';
import { formatAmount, plural, shortReference } from '#shared/pages/format.ts';
import { html, type SafeHtml } from '#shared/pages/html.ts';
import { operatorName } from '#shared/pages/messages.ts';

/**
 * One transaction's page: what it is and its details first, then its actions (a refund from an
 * empty amount; a pending request's cancellation, a link to its confirmation), then its timeline: the request made, the payer's start, the provider's answer, the
 * escrow, the refunds and the webhook deliveries with their re-send. The refund's confirmation
 * page shows the amount, the fee and what leaves the balance before anything is posted.
 */
const text = {
  fr: {
    amount: 'Montant',
    fees: 'Frais',
    status: 'Statut',
    operator: 'Opérateur',
    counterpart: 'Contrepartie',
    reference: 'Référence',
    receipt: 'Référence du reçu',
    store: 'Boutique',
    date: 'Date',
    id: 'Identifiant',
    refundTitle: 'Rembourser',
    refundAmount: 'Montant à rembourser (F CFA)',
    refundHint: (remaining: string) => `Il reste ${remaining} remboursables. Le payeur reçoit ce montant.`,
    continue: 'Continuer',
    cancel: 'Annuler la demande de paiement',
    cancelHint: 'Le payeur ne pourra plus payer cette demande.',
    confirmCancelTitle: 'Annuler cette demande de paiement ?',
    confirmCancel: [
      'Le payeur ne pourra plus la payer : le lien et le code qu’il a reçus afficheront « Annulée ».',
      'Pour être payé ensuite, il faudra faire une nouvelle demande.',
    ],
    confirmCancelWarning: 'une demande annulée ne peut pas être rétablie.',
    confirmCancelButton: 'Oui, annuler la demande',
    cancelled: 'La demande de paiement a été annulée : elle ne peut plus être payée.',
    refundedNotice: 'Le remboursement est fait : il apparaît dans l’historique ci-dessous.',
    timeline: 'Historique',
    created: 'Demande créée',
    payerStarted: (method: string) => `Le payeur a commencé avec ${method}`,
    earlierAttempts: (count: number) =>
      plural('fr', count, { one: '# tentative remplacée', other: '# tentatives remplacées' }),
    attemptError: 'Dernière tentative échouée',
    answer: 'Réponse de l’opérateur',
    expires: 'Payable jusqu’au',
    escrow: 'Séquestre',
    escrowStatus: {
      pending: 'en attente',
      held: 'retenu',
      released: 'libéré',
      refunded: 'remboursé',
      cancelled: 'annulé',
    } as Record<string, string>,
    holdUntil: 'jusqu’au',
    refunds: 'Remboursements',
    refundLine: (amount: string, fee: string) => `${amount} (frais ${fee})`,
    webhooks: 'Webhooks envoyés',
    noWebhooks: 'Aucun envoi de webhook pour cette transaction.',
    attempts: (count: number) => plural('fr', count, { one: '# tentative', other: '# tentatives' }),
    resend: 'Renvoyer',
    resendNamed: (event: string) => `Renvoyer ${event}`,
    deliveryStatus: { pending: 'en cours', delivered: 'livré', failed: 'échoué' } as Record<string, string>,
    refundedPayment: 'Paiement remboursé',
    errorSummary: 'Il y a un problème',
    problems: {
      missing: 'Saisissez le montant à rembourser.',
      not_a_number: 'Saisissez un montant en francs entiers, par exemple 1500.',
      too_small: 'Le montant doit être d’au moins 1 F CFA.',
      too_large: (remaining: string) =>
        `Le montant ne peut pas dépasser ce qui reste remboursable : ${remaining}.`,
      not_refundable:
        'Ce paiement ne peut pas être remboursé (il n’est pas payé, il est en séquestre ou déjà remboursé en entier).',
      insufficient_balance: 'Le solde disponible de la boutique ne couvre pas ce remboursement et ses frais.',
      operator_down:
        'L’opérateur du payeur ne répond pas en ce moment : rien n’a été remboursé. Réessayez dans quelques minutes.',
      not_cancellable: 'Cette demande de paiement est déjà terminée : elle ne peut plus être annulée.',
    },
    confirmTitle: 'Confirmer le remboursement',
    confirmIntro: 'Vérifiez avant de confirmer : le remboursement ne peut pas être annulé.',
    refunded: 'Au payeur',
    refundFee: 'Frais',
    total: 'Pris sur le solde',
    payer: 'Payeur',
    payment: 'Paiement',
    confirm: (amount: string) => `Rembourser ${amount}`,
    change: 'Modifier le montant',
  },
  en: {
    amount: 'Amount',
    fees: 'Fees',
    status: 'Status',
    operator: 'Operator',
    counterpart: 'Counterpart',
    reference: 'Reference',
    receipt: 'Receipt reference',
    store: 'Store',
    date: 'Date',
    id: 'Id',
    refundTitle: 'Refund',
    refundAmount: 'Amount to refund (F CFA)',
    refundHint: (remaining: string) => `${remaining} remain refundable. The payer gets this amount.`,
    continue: 'Continue',
    cancel: 'Cancel the payment request',
    cancelHint: 'The payer will no longer be able to pay it.',
    confirmCancelTitle: 'Cancel this payment request?',
    confirmCancel: [
      'The payer will no longer be able to pay it: the link and the code they received will show “Cancelled”.',
      'To be paid afterwards, you will have to ask again.',
    ],
    confirmCancelWarning: 'a cancelled request cannot be brought back.',
    confirmCancelButton: 'Yes, cancel the request',
    cancelled: 'The payment request was cancelled: it can no longer be paid.',
    refundedNotice: 'The refund is made: it is in the timeline below.',
    timeline: 'Timeline',
    created: 'Request created',
    payerStarted: (method: string) => `The payer started with ${method}`,
    earlierAttempts: (count: number) =>
      plural('en', count, { one: '# attempt replaced', other: '# attempts replaced' }),
    attemptError: 'Last attempt failed',
    answer: 'The provider’s answer',
    expires: 'Payable until',
    escrow: 'Escrow',
    escrowStatus: {
      pending: 'pending',
      held: 'held',
      released: 'released',
      refunded: 'refunded',
      cancelled: 'cancelled',
    } as Record<string, string>,
    holdUntil: 'until',
    refunds: 'Refunds',
    refundLine: (amount: string, fee: string) => `${amount} (fee ${fee})`,
    webhooks: 'Webhooks sent',
    noWebhooks: 'No webhook was sent for this transaction.',
    attempts: (count: number) => plural('en', count, { one: '# attempt', other: '# attempts' }),
    resend: 'Send again',
    resendNamed: (event: string) => `Send ${event} again`,
    deliveryStatus: { pending: 'in progress', delivered: 'delivered', failed: 'failed' } as Record<
      string,
      string
    >,
    refundedPayment: 'Refunded payment',
    errorSummary: 'There is a problem',
    problems: {
      missing: 'Enter the amount to refund.',
      not_a_number: 'Enter an amount in whole francs, for example 1500.',
      too_small: 'The amount must be at least 1 F CFA.',
      too_large: (remaining: string) =>
        `The amount cannot be more than what remains refundable: ${remaining}.`,
      not_refundable:
        'This payment cannot be refunded (it is not paid, it is in escrow, or it is refunded in full).',
      insufficient_balance: 'The store’s available balance does not cover this refund and its fee.',
      operator_down:
        'The payer’s operator is not answering right now: nothing was refunded. Try again in a few minutes.',
      not_cancellable: 'This payment request has ended already: it can no longer be cancelled.',
    },
    confirmTitle: 'Confirm the refund',
    confirmIntro: 'Check before confirming: a refund cannot be undone.',
    refunded: 'To the payer',
    refundFee: 'Fee',
    total: 'From the balance',
    payer: 'Payer',
    payment: 'Payment',
    confirm: (amount: string) => `Refund ${amount}`,
    change: 'Change the amount',
  },
} satisfies Record<Language, unknown>;

export interface TransactionPageContext extends DashboardPageContext {
  pageUrl: string;
  csrfToken: string;
  detail: TransactionDetail;
  canRefund: boolean;
  canCancel: boolean;
  canResend: boolean;
}

/** The page's context for the acting member's role. */
export function transactionPageContextOf(
  request: DashboardPageContext,
  csrfToken: string,
  role: MemberRole,
  detail: TransactionDetail,
): TransactionPageContext {
  return {
    ...request,
    pageUrl: `${request.baseUrl}/dashboard${transactionPath(detail)}`,
    csrfToken,
    detail,
    canRefund: roleAllows(role, 'refund'),
    canCancel: roleAllows(role, 'cancelPayment'),
    canResend: roleAllows(role, 'manageWebhooks'),
  };
}

export interface ActionState {
  amount?: string | undefined;
  problem?: RefundProblem | undefined;
  /** What was just done, said at the top. */
  notice?: 'cancelled' | 'refunded' | undefined;
}

const money = (cents: number, currency = 'XOF') => formatAmount(cents, currency);

function problemMessage(language: Language, problem: RefundProblem): { field: string; message: string } {
  const t = text[language];
  if (problem.kind === 'amount') {
    const message =
      problem.reason === 'too_large'
        ? t.problems.too_large(money(problem.remainingCents))
        : t.problems[problem.reason];
    return { field: 'amount', message };
  }
  return {
    field: problem.kind === 'not_cancellable' ? 'cancel' : 'refund',
    message: t.problems[problem.kind],
  };
}

function summary(context: TransactionPageContext): SafeHtml {
  const t = text[context.language];
  const { record, request, store } = context.detail;
  const type = record?.type ?? 'payment';
  const fees = record?.fees;
  const counterpart = record
    ? counterpartOf(record.counterpartLabel, record.counterpartIdentifier)
    : request?.payerPhone && counterpartOf('', request.payerPhone);
  // An amount never wraps; an id (a reference, the transaction's) stays on one line, cut with an
  // ellipsis on a narrow phone and whole in its title.
  const facts: [string, string | undefined, string?, ('amount' | 'id')?][] = [
    [t.fees, fees && money(fees.amount, fees.currency), 'fees', 'amount'],
    [
      t.operator,
      operatorName(
        context.language,
        record?.paymentMethod ?? request?.collectionMethod ?? request?.paymentMethod,
      ),
    ],
    [t.counterpart, counterpart || undefined],
    [t.reference, record?.reference ?? request?.reference, 'reference', 'id'],
    [t.receipt, record && type === 'payment' ? shortReference(record.id) : undefined],
    [t.store, store?.name],
    [t.date, whenIn(context.language, store, record?.createdAt ?? request?.createdAt ?? '')],
    [t.id, record?.id ?? request?.id, undefined, 'id'],
  ];
  return html`<dl class="facts">${facts
    .filter(([, value]) => value)
    .map(
      ([label, value = '', id, kind]) =>
        html`<dt>${label}</dt><dd${id ? html` data-testid="${id}"` : ''}>${kind === 'id' ? idValue(value) : kind === 'amount' ? amountValue(value) : value}</dd>`,
    )}</dl>`;
}

/** What it is, how much and where it stands: above the actions, so those stay on a phone's first screen. */
function heading(context: TransactionPageContext): SafeHtml {
  const words = transactionWords[context.language];
  const { record, request } = context.detail;
  const type = record?.type ?? 'payment';
  const status = record?.status ?? request?.status ?? 'pending';
  const errorReason = record?.errorReason ?? request?.errorReason;
  const amount = record?.amount ?? {
    amount: request?.amountCents ?? 0,
    currency: request?.currency ?? 'XOF',
  };
  return html`<p class="eyebrow">${words.types[type]} · <span data-testid="status">${stateWord(context.language, { status, errorReason })}</span></p>
<h1 class="amount" data-testid="amount">${money(amount.amount, amount.currency)}</h1>`;
}

function actions(context: TransactionPageContext, state: ActionState): SafeHtml {
  const t = text[context.language];
  const { detail } = context;
  const payment = actionablePayment(detail);
  const invalid = state.problem?.kind === 'amount';
  const error = state.problem && problemMessage(context.language, state.problem);
  const refund =
    context.canRefund &&
    payment?.status === 'success' &&
    detail.refundableCents > 0 &&
    html`<h2 id="refund">${t.refundTitle}</h2>
<form method="post" action="${dashboardUrl(context, transactionPath(detail, '/refund'))}" novalidate>
${csrfField(context.csrfToken)}
<label class="field" for="amount">${t.refundAmount}</label>
<p class="hint" id="amount-hint">${t.refundHint(money(detail.refundableCents))}</p>
${invalid && error && html`<p class="field-error" id="amount-error">${error.message}</p>`}
<input class="input" id="amount" name="amount" inputmode="numeric" autocomplete="off" value="${state.amount ?? ''}" aria-describedby="amount-hint${invalid ? ' amount-error' : ''}"${invalid ? html` aria-invalid="true"` : ''}>
<button class="button" type="submit">${t.continue}</button>
</form>`;
  const cancel =
    context.canCancel &&
    payment?.status === 'pending' &&
    html`<h2 id="cancel">${t.cancel}</h2>
<p class="hint">${t.cancelHint}</p>
<p><a class="button button-secondary" href="${dashboardUrl(context, transactionPath(detail, '/cancel'))}">${t.cancel}</a></p>`;
  return html`${refund || ''}${cancel || ''}`;
}

function timeline(context: TransactionPageContext): SafeHtml {
  const t = text[context.language];
  const { record, request, store, escrow, refunds, deliveries } = context.detail;
  const when = (at: string | undefined) => (at ? whenIn(context.language, store, at) : '');
  const steps: SafeHtml[] = [];
  if (request) {
    steps.push(html`<li><strong>${t.created}</strong> · ${when(request.createdAt)}</li>`);
    if (request.collectionMethod || request.providerReference) {
      steps.push(
        html`<li><strong>${t.payerStarted(operatorName(context.language, request.collectionMethod ?? request.paymentMethod))}</strong>${
          request.payerPhone ? html` · ${counterpartOf('', request.payerPhone)}` : ''
        }${request.supersededCollections?.length ? html` · ${t.earlierAttempts(request.supersededCollections.length)}` : ''}${
          request.attemptError ? html` · ${t.attemptError} (${request.attemptError})` : ''
        }</li>`,
      );
    }
    if (request.status === 'pending') {
      steps.push(html`<li>${t.expires} ${when(request.expiresAt)}</li>`);
    } else {
      steps.push(
        html`<li data-testid="provider-answer"><strong>${t.answer}</strong> · ${stateWord(context.language, request)}${
          request.errorReason && lineState(request) === 'failed' ? html` (${request.errorReason})` : ''
        } · ${when(request.transaction?.executedAt.replace(' ', 'T') ?? request.updatedAt)}</li>`,
      );
    }
  }
  if (record && record.type === 'refund' && request) {
    steps.push(
      html`<li><a href="${dashboardUrl(context, `/transactions/${request.id}`)}">${t.refundedPayment}</a> · ${request.reference}</li>`,
    );
  }
  if (escrow) {
    steps.push(
      html`<li><strong>${t.escrow}</strong> · ${t.escrowStatus[escrow.status] ?? escrow.status}${
        escrow.status === 'held' ? html` ${t.holdUntil} ${when(escrow.holdUntil)}` : ''
      }</li>`,
    );
  }
  for (const refund of refunds) {
    steps.push(
      html`<li data-testid="refund" data-refund-id="${refund.id}"><strong>${t.refunds}</strong> · ${t.refundLine(
        money(refund.amountCents, refund.currency),
        money(refund.feeCents, refund.currency),
      )} · ${stateWord(context.language, { status: refund.status })} · ${when(refund.createdAt)}</li>`,
    );
  }
  return html`<h2>${t.timeline}</h2>
<ol>${steps}</ol>
<h2>${t.webhooks}</h2>
${
  deliveries.length === 0
    ? html`<p class="muted">${t.noWebhooks}</p>`
    : html`<ul>${deliveries.map(
        (delivery) =>
          html`<li data-testid="delivery" data-delivery-id="${delivery.id}">${delivery.eventName} · ${
            t.deliveryStatus[delivery.status] ?? delivery.status
          } · ${t.attempts(delivery.attempts.length)} · ${when(delivery.createdAt)}${
            context.canResend
              ? postForm(
                  dashboardUrl(context, transactionPath(context.detail, `/deliveries/${delivery.id}/resend`)),
                  context.csrfToken,
                  html`<button class="button button-secondary" type="submit" aria-label="${t.resendNamed(delivery.eventName)}">${t.resend}</button>`,
                )
              : ''
          }</li>`,
      )}</ul>`
}`;
}

export function transactionPage(context: TransactionPageContext, state: ActionState = {}): string {
  const t = text[context.language];
  const error = state.problem && problemMessage(context.language, state.problem);
  return dashboardTemplate(context, {
    section: 'transactions',
    title: transactionWords[context.language].types[context.detail.record?.type ?? 'payment'],
    pageUrl: context.pageUrl,
    content: html`<div class="content">
${error && errorSummary(t.errorSummary, [error])}
${doneNotice(state.notice && (state.notice === 'cancelled' ? t.cancelled : t.refundedNotice))}
${heading(context)}
${summary(context)}
${actions(context, state)}
${timeline(context)}
</div>`,
  });
}

export function confirmRefundPage(context: TransactionPageContext, preview: RefundPreview): string {
  const t = text[context.language];
  const { record, request } = context.detail;
  const currency = request?.currency ?? 'XOF';
  return dashboardTemplate(context, {
    section: 'transactions',
    title: t.confirmTitle,
    pageUrl: context.pageUrl,
    content: html`<div class="content">
<h1>${t.confirmTitle}</h1>
<p>${t.confirmIntro}</p>
<dl class="facts">
<dt>${t.refunded}</dt><dd class="nowrap" data-testid="confirm-amount">${money(preview.amountCents, currency)}</dd>
<dt>${t.refundFee}</dt><dd class="nowrap" data-testid="confirm-fee">${money(preview.feeCents, currency)}</dd>
<dt>${t.total}</dt><dd class="nowrap" data-testid="confirm-total">${money(preview.totalCents, currency)}</dd>
</dl>
${postForm(
  dashboardUrl(context, transactionPath(context.detail, '/refund/confirm')),
  context.csrfToken,
  html`<input type="hidden" name="amountCents" value="${String(preview.amountCents)}">
<input type="hidden" name="key" value="${preview.key}">
<button class="button" type="submit">${t.confirm(money(preview.amountCents, currency))}</button>`,
)}
<dl class="facts receipt">
${record && html`<dt>${t.payer}</dt><dd class="receipt-order">${counterpartOf(record.counterpartLabel, record.counterpartIdentifier)}</dd>`}
<dt>${t.payment}</dt><dd>${idValue(request?.reference ?? '')}</dd>
</dl>
<p><a href="${dashboardUrl(context, transactionPath(context.detail))}">${t.change}</a></p>
</div>`,
  });
}

/** The step before a pending payment request is cancelled: the amount, the payer, what it changes. */
export function confirmCancelPage(context: TransactionPageContext): string {
  const t = text[context.language];
  const { request, store } = context.detail;
  const facts: [string, string][] = [
    [t.amount, money(request?.amountCents ?? 0, request?.currency ?? 'XOF')],
    ...(request?.payerPhone ? [[t.payer, counterpartOf('', request.payerPhone)] as [string, string]] : []),
    ...(request?.reference ? [[t.reference, request.reference] as [string, string]] : []),
    ...(store?.name ? [[t.store, store.name] as [string, string]] : []),
  ];
  return confirmationPage(
    { ...context, pageUrl: `${context.baseUrl}/dashboard${transactionPath(context.detail, '/cancel')}` },
    {
      section: 'transactions',
      title: t.confirmCancelTitle,
      facts,
      consequences: t.confirmCancel,
      warning: t.confirmCancelWarning,
      action: dashboardUrl(context, transactionPath(context.detail, '/cancel')),
      confirm: t.confirmCancelButton,
      backUrl: dashboardUrl(context, transactionPath(context.detail)),
    },
  );
}
