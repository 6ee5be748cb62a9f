import type { PaymentRequest } from '#shared/data/payment-request.ts';
import type { Language } from '#shared/domain/languages.ts';
import { payerCountryOf } from '#shared/domain/payer-country.ts';
import { isFollowableReturnUrl } from '#shared/domain/return-urls.ts';
import type { HostedPaymentForm, HostedPaymentFormErrors } from '#shared/operations/hosted-payment.ts';
import { formatAmount, formatPhone } from '#shared/pages/format.ts';
import { html, type SafeHtml } from '#shared/pages/html.ts';
import { layout, withLanguage } from '#shared/pages/layout.ts';
import { type Messages, messages, providerNames } from '#shared/pages/messages.ts';
import { payerForm, paymentSummary } from '#shared/pages/payer-form.ts';
import { receipt } from '#shared/pages/receipt.ts';
import type { OperatorsDown } from '#shared/providers/routing.ts';

export interface PageContext {
  language: Language;
  /** The language was chosen with the page's switch: the service's own links keep it. */
  languagePinned: boolean;
  baseUrl: string;
  /** Where the store is, for a receipt's times (IANA name); Côte d'Ivoire's when not given. */
  timeZone?: string | undefined;
  /** Operators down right now: the form leaves them out and says so. */
  operatorsDown?: OperatorsDown | undefined;
}

/** A link to one of the service's own pages, keeping a language the payer chose on the page. */
export const ownUrl = (url: string, { language, languagePinned }: PageContext) =>
  languagePinned ? withLanguage(url, language) : url;

export const paymentPageUrl = (baseUrl: string, id: string) => `${baseUrl}/payment/${encodeURIComponent(id)}`;

/**
 * `/payment/{id}`: the form while the request is pending (every provider, the requested one
 * chosen, and the payer's phone); once it has ended, how it ended and the way back to the merchant.
 */
export function paymentPage(
  request: PaymentRequest,
  context: PageContext,
  filled: { form?: HostedPaymentForm; errors?: HostedPaymentFormErrors } = {},
): string {
  const { language, baseUrl } = context;
  const t = messages[language];
  const pageUrl = paymentPageUrl(baseUrl, request.id);
  // Past `expiresAt`, a payment under way has its grace for the provider's answer, and no new one
  // may start: the payer waits for that answer rather than being offered a form that would fail.
  if (request.status === 'pending' && Date.parse(request.expiresAt) <= Date.now())
    return waitingPage(request, context, 0);
  const content =
    request.status === 'pending'
      ? paymentForm(request, context, filled)
      : outcome(request, context, filled.errors);
  return layout({ language, title: `${t.title} · ${request.storeName}`, content, pageUrl });
}

function paymentForm(
  request: PaymentRequest,
  context: PageContext,
  { form, errors }: { form?: HostedPaymentForm; errors?: HostedPaymentFormErrors },
): SafeHtml {
  const t = messages[context.language];
  // Back on the form after starting a collection: that one may still succeed, and the payer must
  // know; or it failed, and the payer is told why before trying again.
  const underWay = request.providerReference && !request.attemptError;
  // A refusal at once says why itself (the form's alert); the failed attempt behind it is not news.
  const failed = request.attemptError && !errors?.refusedBy ? failureReason(request, t) : undefined;
  return html`${paymentSummary({ ...request, purpose: request.description }, t)}
${underWay && underWayNotice(request, context)}
${payerForm(
  {
    action: ownUrl(paymentPageUrl(context.baseUrl, request.id), context),
    amountCents: request.amountCents,
    currency: request.currency,
    chosen: form?.paymentMethod ?? request.collectionMethod ?? request.paymentMethod,
    country: payerCountryOf(form, request),
    language: context.language,
    phone: form?.payerPhone ?? request.payerPhone ?? '',
    errors,
    notice: failed
      ? html`<p class="alert" role="alert" id="attempt-failed">${t.attemptFailed(failed)}</p>`
      : undefined,
    anotherWay: Boolean(underWay),
    down: context.operatorsDown,
  },
  t,
)}
${request.type === 'redirect' && request.errorUrl && leaveForm(request, context, t)}`;
}

/**
 * A collection started and not answered: the payer may have come back before approving it on the
 * phone. The page says it is under way and how to approve it, and its first button checks on it;
 * paying another way stays possible below, never the same button again as if nothing happened.
 */
export function underWayNotice(
  request: PaymentRequest,
  context: PageContext,
  checkUrl = `${paymentPageUrl(context.baseUrl, request.id)}/return`,
): SafeHtml {
  const t = messages[context.language];
  const provider = request.collectionMethod ?? request.paymentMethod;
  const name = providerNames[provider];
  return html`<section class="content" id="earlier-collection">
<div class="notice" role="status">
<h2>${t.underWayTitle(name)}</h2>
${request.payerPhone && html`<p>${t.waitingPhone(formatPhone(request.payerPhone))}</p>`}
<p>${t.waitingStep[provider]}</p>
<p class="muted">${t.earlierCollection(name)}</p>
</div>
<a class="button" href="${ownUrl(checkUrl, context)}">${t.checkPayment}</a>
</section>`;
}

/**
 * "Back to the shop" while the payment is open: a form of its own (no script), posting to
 * `/payment/{id}/abandon`, which ends the request (`abandoned`) and sends the payer to `errorUrl`.
 */
function leaveForm(request: PaymentRequest, context: PageContext, t: Messages): SafeHtml {
  const action = ownUrl(`${paymentPageUrl(context.baseUrl, request.id)}/abandon`, context);
  return html`<form class="leave" method="post" action="${action}">
<p class="muted">${t.leaveHint}</p>
<button class="button button-secondary" type="submit">${t.backToMerchant}</button>
</form>`;
}

/** The outcome's title: paid, or how it ended unpaid. */
const outcomeTitle = (request: PaymentRequest, t: Messages): string =>
  request.status === 'success'
    ? t.paidTitle
    : request.errorReason === 'expired'
      ? t.expiredTitle
      : request.errorReason === 'cancelled'
        ? t.cancelledTitle
        : t.failedTitle;

/** Why a payment ended in error (or, still open, why its last attempt failed), in the payer's words. */
export const failureReason = (request: PaymentRequest, t: Messages): string => {
  const reason = request.status === 'pending' ? request.attemptError : request.errorReason;
  return (reason && t.reasons[reason]) || t.unknownReason;
};

function outcome(
  request: PaymentRequest,
  context: PageContext,
  errors: HostedPaymentFormErrors = {},
): SafeHtml {
  const t = messages[context.language];
  const amount = formatAmount(request.amountCents, request.currency);
  const paid = request.status === 'success';
  const back = paid ? request.successUrl : request.errorUrl;
  const reason = errors.refusedBy
    ? t.providerRefused(providerNames[errors.refusedBy])
    : failureReason(request, t);
  return html`<section class="status ${paid ? 'status-success' : 'status-error'}">
<div class="status-icon" aria-hidden="true">${paid ? '✓' : '✕'}</div>
<h1>${outcomeTitle(request, t)}</h1>
<p>${paid ? t.paidText(amount, request.storeName) : t.failedText(amount, request.storeName)}</p>
${!paid && html`<p>${reason} ${t.noMoneyTaken}</p>`}
${receipt(request, context)}
${isFollowableReturnUrl(back) && html`<a class="button" href="${back}">${t.backToMerchant}</a>`}
</section>`;
}

/** Looks for the outcome (two seconds apart, layout.ts): three minutes; then the payer is offered to look again. */
export const returnRefreshAttempts = 90;

/**
 * `/payment/{id}/return` while the provider's callback has not arrived; `returnUrl` is the page
 * that waits when it is another one (the payment-link page the payer comes back to), `formUrl`
 * the page whose form starts the payment again with another number.
 */
export function waitingPage(
  request: PaymentRequest,
  context: PageContext,
  attempt: number,
  returnUrl = `${paymentPageUrl(context.baseUrl, request.id)}/return`,
  formUrl = paymentPageUrl(context.baseUrl, request.id),
): string {
  const { language } = context;
  const t = messages[language];
  const waiting = attempt < returnRefreshAttempts;
  const provider = request.collectionMethod ?? request.paymentMethod;
  const next = new URL(ownUrl(returnUrl, context));
  next.searchParams.set('attempt', String(attempt + 1));
  // While waiting, the page's script looks for the outcome (see layout.ts); the button is the way
  // without a script, and after the looks are over.
  const content = html`<section class="status status-info"${waiting ? html` data-poll="${ownUrl(returnUrl, context)}" data-attempt="${attempt}" data-attempts="${returnRefreshAttempts}"` : ''}>
${waiting ? html`<div class="spinner" aria-hidden="true"></div>` : html`<div class="status-icon" aria-hidden="true">…</div>`}
<h1>${t.waitingTitle}</h1>
<p class="waiting-step">${t.waitingStep[provider]}</p>
${request.payerPhone && html`<p>${t.waitingPhone(formatPhone(request.payerPhone))} <a href="${ownUrl(formUrl, context)}">${t.changeNumber}</a></p>`}
<p role="status" class="muted">${waiting ? t.waitingText : t.stillWaitingText}</p>
<p class="muted">${formatAmount(request.amountCents, request.currency)} · ${providerNames[provider]} · ${request.storeName}</p>
<a class="button${waiting ? ' button-secondary' : ''}" href="${waiting ? next.href : ownUrl(returnUrl, context)}">${t.checkAgain}</a>
</section>`;
  return layout({
    language,
    title: t.waitingTitle,
    content,
    pageUrl: returnUrl,
    waiting,
  });
}
