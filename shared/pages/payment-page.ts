import type { PaymentRequest } from '#shared/data/payment-request.ts';
import { type ProviderCode, providerCodes } from '#shared/domain/payment-methods.ts';
import { isFollowableReturnUrl } from '#shared/domain/return-urls.ts';
import type { HostedPaymentForm, HostedPaymentFormErrors } from '#shared/operations/hosted-payment.ts';
import { formatAmount } from '#shared/pages/format.ts';
import { html, type SafeHtml } from '#shared/pages/html.ts';
import type { Language } from '#shared/pages/language.ts';
import { layout, withLanguage } from '#shared/pages/layout.ts';
import { type Messages, messages, providerNames } from '#shared/pages/messages.ts';

/** Short marks standing in for the providers' logos, in their brand colours. */
export const providerMarks: Record<ProviderCode, string> = {
  orange: 'OM',
  wave: 'W',
  mtn: 'MTN',
  moov: 'MM',
  djamo: 'DJ',
};

export interface PageContext {
  language: Language;
  /** The language was chosen with the page's switch: the service's own links keep it. */
  languagePinned: boolean;
  baseUrl: string;
}

/** A link to one of the service's own pages, keeping a language the payer chose on the page. */
export const ownUrl = (url: string, { language, languagePinned }: PageContext) =>
  languagePinned ? withLanguage(url, language) : url;

export const paymentPageUrl = (baseUrl: string, id: string) => `${baseUrl}/payment/${encodeURIComponent(id)}`;

function summary(request: PaymentRequest, t: Messages): SafeHtml {
  return html`<header class="summary">
<p class="eyebrow">${t.payTo}</p>
<h1 class="store">${request.storeName}</h1>
<p class="amount">${formatAmount(request.amountCents, request.currency)}</p>
<p class="reference">${t.reference(request.reference)}</p>
</header>`;
}

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
  const content =
    request.status === 'pending' ? paymentForm(request, context, filled) : outcome(request, t, filled.errors);
  return layout({ language, title: `${t.title} · ${request.storeName}`, content, pageUrl });
}

function paymentForm(
  request: PaymentRequest,
  context: PageContext,
  { form, errors = {} }: { form?: HostedPaymentForm; errors?: HostedPaymentFormErrors },
): SafeHtml {
  const t = messages[context.language];
  const amount = formatAmount(request.amountCents, request.currency);
  const chosen = form?.paymentMethod ?? request.collectionMethod ?? request.paymentMethod;
  const phone = form?.payerPhone ?? request.payerPhone ?? '';
  const refusal = errors.refusedBy && t.providerRefused(providerNames[errors.refusedBy]);
  return html`${summary(request, t)}
<form class="content" method="post" action="${ownUrl(paymentPageUrl(context.baseUrl, request.id), context)}" novalidate>
${refusal && html`<p class="alert" role="alert">${refusal}</p>`}
<fieldset${errors.paymentMethod ? html` aria-describedby="method-error"` : ''}>
<legend>${t.chooseProvider}</legend>
${errors.paymentMethod && html`<p class="alert" id="method-error" role="alert">${t.providerRequired}</p>`}
<div class="providers">
${providerCodes.map(
  (code) => html`<label class="provider">
<span class="badge brand-${code}" aria-hidden="true">${providerMarks[code]}</span>
<span class="provider-name">${providerNames[code]}</span>
<input type="radio" name="paymentMethod" value="${code}"${code === chosen ? html` checked` : ''}>
</label>
`,
)}</div>
</fieldset>
<label class="field" for="payerPhone">${t.phoneLabel}</label>
<p class="hint" id="phone-hint">${t.phoneHint}</p>
<input class="input" type="tel" id="payerPhone" name="payerPhone" value="${phone}" placeholder="+225 07 00 00 00 00" inputmode="tel" autocomplete="tel" maxlength="32" required aria-describedby="${errors.payerPhone ? 'phone-error phone-hint' : 'phone-hint'}"${errors.payerPhone ? html` aria-invalid="true"` : ''}>
${errors.payerPhone && html`<p class="field-error" id="phone-error" role="alert">${t.phoneInvalid}</p>`}
<button class="button" type="submit">${t.pay(amount)}</button>
<p class="note">${t.payNote}</p>
</form>`;
}

function outcome(request: PaymentRequest, t: Messages, errors: HostedPaymentFormErrors = {}): SafeHtml {
  const amount = formatAmount(request.amountCents, request.currency);
  const paid = request.status === 'success';
  const back = paid ? request.successUrl : request.errorUrl;
  const reason = errors.refusedBy
    ? t.providerRefused(providerNames[errors.refusedBy])
    : (request.errorReason && t.reasons[request.errorReason]) || t.unknownReason;
  return html`<section class="status ${paid ? 'status-success' : 'status-error'}">
<div class="status-icon" aria-hidden="true">${paid ? '✓' : '✕'}</div>
<h1>${paid ? t.paidTitle : t.failedTitle}</h1>
<p>${paid ? t.paidText(amount, request.storeName) : t.failedText(amount, request.storeName)}</p>
${!paid && html`<p>${reason} ${t.noMoneyTaken}</p>`}
<p class="muted">${t.reference(request.reference)}</p>
${isFollowableReturnUrl(back) && html`<a class="button" href="${back}">${t.backToMerchant}</a>`}
</section>`;
}

/** Two seconds between looks, for three minutes; then the payer is offered to look again. */
export const returnRefreshSeconds = 2;
export const returnRefreshAttempts = 90;

/** `/payment/{id}/return` while the provider's callback has not arrived. */
export function waitingPage(request: PaymentRequest, context: PageContext, attempt: number): string {
  const { language, baseUrl } = context;
  const t = messages[language];
  const returnUrl = `${paymentPageUrl(baseUrl, request.id)}/return`;
  const waiting = attempt < returnRefreshAttempts;
  const next = new URL(ownUrl(returnUrl, context));
  next.searchParams.set('attempt', String(attempt + 1));
  const content = html`<section class="status status-info">
${waiting ? html`<div class="spinner" aria-hidden="true"></div>` : html`<div class="status-icon" aria-hidden="true">…</div>`}
<h1>${t.waitingTitle}</h1>
<p role="status">${waiting ? t.waitingText : t.stillWaitingText}</p>
<p class="muted">${formatAmount(request.amountCents, request.currency)} · ${request.storeName}</p>
${!waiting && html`<a class="button" href="${ownUrl(returnUrl, context)}">${t.checkAgain}</a>`}
</section>`;
  return layout({
    language,
    title: t.waitingTitle,
    content,
    pageUrl: returnUrl,
    refresh: waiting ? { seconds: returnRefreshSeconds, url: next.href } : undefined,
  });
}
