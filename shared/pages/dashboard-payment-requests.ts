import type { PaymentRequest } from '#shared/data/payment-request.ts';
import type { Store } from '#shared/data/store.ts';
import { storeTimeZone } from '#shared/domain/country-time-zones.ts';
import type { Language } from '#shared/domain/languages.ts';
import type {
  AskError,
  AskedStatus,
  AskField,
  AskForm,
  AskPreview,
  AskSmsText,
  CheckedAsk,
} from '#shared/operations/dashboard-payment-requests.ts';
import { askedStatusOf, maxNoteCharacters } from '#shared/operations/dashboard-payment-requests.ts';
import { errorSummary, field } from '#shared/pages/components.ts';
import { csrfField } from '#shared/pages/dashboard-chrome.ts';
import { dashboardTemplate } from '#shared/pages/dashboard-template.ts';
import { type DashboardPageContext, dashboardUrl } from '#shared/pages/dashboard-url.ts';
import { dashboardTime, formatAmount, formatPhone } from '#shared/pages/format.ts';
import { html, type SafeHtml } from '#shared/pages/html.ts';
import { messages } from '#shared/pages/messages.ts';
import { phoneCountryField, phoneCountryOf, phoneExamples, phoneField } from '#shared/pages/phone-country.ts';

/**
 * "Ask for a payment" (issue 26, item 4): the form, its check step (the text the payer gets and
 * what it costs in SMS), the latest asks, and one request's page, which follows the payment with
 * the hosted pages' waiting script (allowed by its hash) and a "Refresh" button without it.
 */
const text = {
  fr: {
    title: 'Demander un paiement',
    intro: 'Le client reçoit par SMS un lien pour payer avec son mobile money.',
    balance: (segments: number) => `Solde SMS : ${segments} SMS.`,
    store: 'Point de vente',
    amount: 'Montant (F CFA)',
    amountHint: 'En francs, par exemple 1 500',
    payerPhone: 'Numéro du client',
    payerPhoneHint: 'Il reçoit le SMS.',
    note: 'Motif (facultatif)',
    noteHint: 'Ce que le client paie, affiché sur la page de paiement',
    check: 'Continuer',
    errorSummary: 'Il y a un problème',
    errors: {
      storeId: { required: 'Choisissez le point de vente.' },
      amount: {
        required: 'Saisissez le montant.',
        format: 'Saisissez le montant en francs, en chiffres, par exemple 1 500.',
        min: 'Le montant doit être d’au moins 1 F CFA.',
        max: 'Le montant est trop élevé.',
      },
      payerPhone: {
        required: 'Saisissez le numéro du client.',
        unserved: 'Aucun mobile money du service ne prend les paiements dans le pays de ce numéro.',
      },
      note: { max: `Le motif ne doit pas dépasser ${maxNoteCharacters} caractères.` },
    } as Record<AskField, Partial<Record<AskError['rule'], string>>>,
    ceiling:
      'Ce montant dépasse ce que l’entreprise peut encore encaisser ce mois-ci à son niveau de vérification.',
    checkTitle: 'Vérifiez la demande',
    payer: 'Client',
    smsText: 'SMS envoyé au client',
    cost: (segments: number) => `Coût : ${segments} SMS, pris sur le solde.`,
    confirm: 'Envoyer la demande par SMS',
    change: 'Modifier',
    emptyBalance: (segments: number, balance: number) =>
      `Solde SMS insuffisant : ce SMS coûte ${segments} SMS et le solde est de ${balance}. Rien n’a été créé ni débité. Rechargez le solde SMS pour demander un paiement.`,
    latest: 'Dernières demandes',
    none: 'Aucune demande pour l’instant.',
    statuses: {
      pending: 'En attente',
      paid: 'Payée',
      expired: 'Expirée',
      cancelled: 'Annulée',
      failed: 'Échouée',
    } satisfies Record<AskedStatus, string>,
    requestTitle: 'Demande de paiement',
    waiting: 'En attente du paiement du client.',
    paidText: 'Le client a payé.',
    endedText: 'Cette demande n’a pas été payée.',
    status: 'Statut',
    statusIs: 'Statut\u00a0:',
    askedAt: 'Demandée le',
    expiresAt: 'Valable jusqu’au',
    reference: 'Référence',
    payLink: 'Page de paiement',
    refresh: 'Actualiser',
    back: 'Retour aux demandes',
  },
  en: {
    title: 'Ask for a payment',
    intro: 'The customer gets a link by SMS to pay with their mobile money.',
    balance: (segments: number) => `SMS balance: ${segments} SMS.`,
    store: 'Point of sale',
    amount: 'Amount (F CFA)',
    amountHint: 'In francs, for example 1 500',
    payerPhone: 'Customer’s number',
    payerPhoneHint: 'It gets the SMS.',
    note: 'What it is for (optional)',
    noteHint: 'What the customer pays for, shown on the payment page',
    check: 'Continue',
    errorSummary: 'There is a problem',
    errors: {
      storeId: { required: 'Choose the point of sale.' },
      amount: {
        required: 'Enter the amount.',
        format: 'Enter the amount in francs, in digits, for example 1 500.',
        min: 'The amount must be at least 1 F CFA.',
        max: 'The amount is too high.',
      },
      payerPhone: {
        required: 'Enter the customer’s number.',
        unserved: 'No mobile money of the service takes payments in this number’s country.',
      },
      note: { max: `What it is for must be at most ${maxNoteCharacters} characters.` },
    } as Record<AskField, Partial<Record<AskError['rule'], string>>>,
    ceiling:
      'This amount is more than the business may still collect this month at its verification level: the identity check, from the home page, raises it.',
    checkTitle: 'Check the request',
    payer: 'Customer',
    smsText: 'SMS sent to the customer',
    cost: (segments: number) => `Cost: ${segments} SMS, taken from the balance.`,
    confirm: 'Send the request by SMS',
    change: 'Change',
    emptyBalance: (segments: number, balance: number) =>
      `Not enough SMS balance: this SMS costs ${segments} SMS and the balance is ${balance}. Nothing was made or charged. Top up the SMS balance to ask for a payment.`,
    latest: 'Latest requests',
    none: 'No requests yet.',
    statuses: {
      pending: 'Pending',
      paid: 'Paid',
      expired: 'Expired',
      cancelled: 'Cancelled',
      failed: 'Failed',
    } satisfies Record<AskedStatus, string>,
    requestTitle: 'Payment request',
    waiting: 'Waiting for the customer to pay.',
    paidText: 'The customer paid.',
    endedText: 'This request was not paid.',
    status: 'Status',
    statusIs: 'Status:',
    askedAt: 'Asked',
    expiresAt: 'Valid until',
    reference: 'Reference',
    payLink: 'Payment page',
    refresh: 'Refresh',
    back: 'Back to the requests',
  },
} satisfies Record<Language, unknown>;

export interface AskPageContext extends DashboardPageContext {
  csrfToken: string;
  stores: readonly Store[];
  asks: readonly PaymentRequest[];
  smsBalance: number;
  /** The member may ask (`requestPayment`); otherwise the list alone. */
  canAsk: boolean;
}

export interface AskFormState {
  form: AskForm;
  errors: readonly AskError[];
  /** The business's collection ceiling refused the amount. */
  ceiling?: boolean;
}

/** An amount as the SMS writes it: plain spaces, so a text in the GSM alphabet stays in it (cheaper). */
const smsAmount = (amountCents: number, currency: string) =>
  formatAmount(amountCents, currency).replace(/[\u00a0\u202f]/g, ' ');

/** The text the payer gets, in the page's language: who asks, how much, for what, and the hosted page. */
export const askSmsText =
  (language: Language): AskSmsText =>
  (ask, pageUrl) => {
    const amount = smsAmount(ask.amountCents, ask.currency);
    const note = ask.note ? ` (${ask.note})` : '';
    return language === 'en'
      ? `${ask.businessName} asks you for ${amount}${note}. Pay here: ${pageUrl}`
      : `${ask.businessName} vous demande ${amount}${note}. Payez ici : ${pageUrl}`;
  };

const pageUrlOf = (context: DashboardPageContext, path = '') =>
  `${context.baseUrl}/dashboard/payment-requests${path}`;

const when = (language: Language, at: string, store: object) => {
  return dashboardTime(at, storeTimeZone(store), language);
};

const statusBadge = (language: Language, request: PaymentRequest) => {
  const status = askedStatusOf(request);
  return html`<strong data-status="${status}">${text[language].statuses[status]}</strong>`;
};

function askForm(context: AskPageContext, state: AskFormState | undefined): SafeHtml {
  const t = text[context.language];
  const form = state?.form ?? { storeId: context.stores[0]?.id ?? '', amount: '', payerPhone: '', note: '' };
  const errors = state?.errors ?? [];
  // A national number is read in the country chosen beside it, the store's by default.
  const store = context.stores.find((candidate) => candidate.id === form.storeId) ?? context.stores[0];
  const country = phoneCountryOf(form.phoneCountry, { businessCountry: store?.country });
  const examples = phoneExamples(country, context.language);
  const wordsOf = (error: AskError) =>
    error.field === 'payerPhone' && error.rule === 'format'
      ? examples.invalidMobile
      : t.errors[error.field][error.rule];
  const messageOf = (name: AskField) => {
    const error = errors.find((candidate) => candidate.field === name);
    return error && wordsOf(error);
  };
  const summary = [
    ...(state?.ceiling ? [{ field: 'amount', message: t.ceiling }] : []),
    ...errors.map((error) => ({ field: error.field, message: wordsOf(error) ?? '' })),
  ];
  const storeError = messageOf('storeId');
  // One store (the usual case) is not a choice: the field would only push the button down the screen.
  const storeField =
    context.stores.length === 1
      ? html`<input type="hidden" name="storeId" value="${context.stores[0]?.id}">`
      : html`<label class="field" for="storeId">${t.store}</label>
${storeError && html`<p class="field-error" id="storeId-error">${storeError}</p>`}
<select class="input" id="storeId" name="storeId"${storeError ? html` aria-invalid="true" aria-describedby="storeId-error"` : ''}>
${context.stores.map((store) => html`<option value="${store.id}"${form.storeId === store.id ? html` selected` : ''}>${store.name}</option>`)}
</select>`;
  return html`${errorSummary(t.errorSummary, summary)}
<form method="post" action="${dashboardUrl(context, '/payment-requests')}" novalidate>
${csrfField(context.csrfToken)}
${storeField}
${field({ name: 'amount', label: t.amount, value: form.amount, hint: t.amountHint, error: state?.ceiling ? t.ceiling : messageOf('amount'), attributes: html` inputmode="numeric" autocomplete="off" maxlength="20"` })}
${phoneField({ name: 'payerPhone', label: t.payerPhone, country, language: context.language, value: form.payerPhone, hint: `${t.payerPhoneHint} ${examples.hint}`, error: messageOf('payerPhone'), attributes: html` type="tel" autocomplete="off" maxlength="32"` })}
${field({ name: 'note', label: t.note, value: form.note, error: messageOf('note'), attributes: html` maxlength="${maxNoteCharacters}" autocomplete="off"` })}
<button class="button" type="submit">${t.check}</button>
</form>`;
}

function askItem(context: DashboardPageContext, request: PaymentRequest): SafeHtml {
  return html`<li data-request-id="${request.id}"><a href="${dashboardUrl(context, `/payment-requests/${request.id}`)}">${formatAmount(request.amountCents, request.currency)} · ${request.payerPhone ? formatPhone(request.payerPhone) : ''}</a>
· ${statusBadge(context.language, request)}<br><span class="muted">${when(context.language, request.createdAt, { country: request.storeCountry })}${request.description ? ` · ${request.description}` : ''}</span></li>`;
}

/** The form (for roles that may ask) above the latest asks with their status. */
export function askPage(context: AskPageContext, state?: AskFormState): string {
  const t = text[context.language];
  return dashboardTemplate(context, {
    section: 'paymentRequests',
    title: t.title,
    pageUrl: pageUrlOf(context),
    content: html`<div class="panel">
<h1>${t.title}</h1>
<p class="muted">${t.intro} <span data-testid="sms-balance">${t.balance(context.smsBalance)}</span></p>
${context.canAsk && askForm(context, state)}
<h2>${t.latest}</h2>
${context.asks.length === 0 ? html`<p>${t.none}</p>` : html`<ul data-testid="asked-requests">${context.asks.map((request) => askItem(context, request))}</ul>`}
</div>`,
  });
}

/**
 * The check step: what will be asked and the very text the payer gets, with its cost. A balance
 * short of it is said here, and the button to send is not offered (nothing is made).
 */
export function checkAskPage(
  context: DashboardPageContext & { csrfToken: string },
  ask: CheckedAsk,
  form: AskForm,
  preview: AskPreview,
  /** The send was refused on the balance after the check (spent meanwhile). */
  refused = false,
): string {
  const t = text[context.language];
  const short = refused || preview.smsBalance < preview.segments;
  const hidden = html`${csrfField(context.csrfToken)}
<input type="hidden" name="storeId" value="${form.storeId}">
<input type="hidden" name="amount" value="${form.amount}">
<input type="hidden" name="payerPhone" value="${form.payerPhone}">
${form.phoneCountry && html`<input type="hidden" name="${phoneCountryField}" value="${form.phoneCountry}">`}
<input type="hidden" name="note" value="${form.note}">`;
  return dashboardTemplate(context, {
    section: 'paymentRequests',
    title: t.checkTitle,
    pageUrl: pageUrlOf(context),
    content: html`<div class="panel">
<h1>${t.checkTitle}</h1>
${short && html`<div class="alert" role="alert" id="sms-balance-refused"><p>${t.emptyBalance(preview.segments, preview.smsBalance)}</p></div>`}
<dl class="facts">
<dt>${t.amount}</dt><dd>${formatAmount(ask.amountCents, ask.store.currency)}</dd>
<dt>${t.payer}</dt><dd>${formatPhone(ask.payerPhone)}</dd>
<dt>${t.store}</dt><dd>${ask.store.name}</dd>
${ask.note && html`<dt>${t.note}</dt><dd>${ask.note}</dd>`}
</dl>
<h2>${t.smsText}</h2>
<p class="notice" data-testid="sms-text">${preview.text}</p>
<p>${t.cost(preview.segments)} ${t.balance(preview.smsBalance)}</p>
<form method="post" action="${dashboardUrl(context, '/payment-requests')}">
${hidden}
${!short && html`<button class="button" type="submit" name="confirm" value="yes">${t.confirm}</button>`}
<button class="button button-secondary" type="submit" name="confirm" value="change">${t.change}</button>
</form>
</div>`,
  });
}

/** Looks for a change (two seconds apart, layout.ts) for ten minutes; then the button. */
export const requestRefreshAttempts = 300;

/** One request: its status while it is pending followed by the waiting script, or how it ended. */
export function requestPage(context: DashboardPageContext, request: PaymentRequest, attempt: number): string {
  const t = text[context.language];
  const status = askedStatusOf(request);
  const selfUrl = dashboardUrl(context, `/payment-requests/${request.id}`);
  const waiting = status === 'pending' && attempt < requestRefreshAttempts;
  const store = { country: request.storeCountry };
  const tone = status === 'paid' ? 'status-success' : status === 'pending' ? 'status-info' : 'status-error';
  const icon = status === 'paid' ? '✓' : status === 'pending' ? '…' : '✕';
  return dashboardTemplate(context, {
    section: 'paymentRequests',
    title: `${t.requestTitle} · ${t.statuses[status]}`,
    pageUrl: pageUrlOf(context, `/${request.id}`),
    waiting,
    content: html`<div class="panel">
<section class="status ${tone}"${waiting ? html` data-poll="${selfUrl}" data-attempt="${attempt}" data-attempts="${requestRefreshAttempts}"` : ''}>
${waiting ? html`<div class="spinner" aria-hidden="true"></div>` : html`<div class="status-icon" aria-hidden="true">${icon}</div>`}
<h1>${formatAmount(request.amountCents, request.currency)}</h1>
<p role="status">${t.statusIs} ${statusBadge(context.language, request)}. ${status === 'pending' ? t.waiting : status === 'paid' ? t.paidText : t.endedText}</p>
${status === 'pending' && html`<a class="button button-secondary" href="${selfUrl}">${t.refresh}</a>`}
</section>
<dl class="facts">
${request.payerPhone && html`<dt>${t.payer}</dt><dd>${formatPhone(request.payerPhone)}</dd>`}
${request.description && html`<dt>${t.note}</dt><dd>${request.description}</dd>`}
<dt>${t.store}</dt><dd>${request.storeName}</dd>
<dt>${t.reference}</dt><dd>${request.reference}</dd>
<dt>${t.askedAt}</dt><dd>${when(context.language, request.createdAt, store)}</dd>
${status === 'pending' && html`<dt>${t.expiresAt}</dt><dd>${when(context.language, request.expiresAt, store)}</dd>`}
${status === 'failed' && request.errorReason && html`<dt>${t.status}</dt><dd>${messages[context.language].reasons[request.errorReason] ?? request.errorReason}</dd>`}
<dt class="receipt-id">${t.payLink}</dt><dd class="receipt-id">${request.redirectUrl}</dd>
</dl>
<p class="note"><a href="${dashboardUrl(context, '/payment-requests')}">${t.back}</a></p>
</div>`,
  });
}
