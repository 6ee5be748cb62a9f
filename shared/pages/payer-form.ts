import { type ProviderCode, providerCodes } from '#shared/domain/payment-methods.ts';
import type { HostedPaymentFormErrors } from '#shared/operations/hosted-payment.ts';
import { formatAmount } from '#shared/pages/format.ts';
import { html, type SafeHtml } from '#shared/pages/html.ts';
import { type Messages, providerNames } from '#shared/pages/messages.ts';

/**
 * The parts a payer sees on every page that takes a payment (the payment page, the payment-link
 * page): whom and how much they pay, then the providers and the phone. One markup, so the pages
 * look and read the same and a fix to one reaches all.
 */

/** Short marks standing in for the providers' logos, in their brand colours. */
export const providerMarks: Record<ProviderCode, string> = {
  orange: 'OM',
  wave: 'W',
  mtn: 'MTN',
  moov: 'MM',
  djamo: 'DJ',
};

export interface SummaryOf {
  storeName: string;
  amountCents: number;
  currency: string;
  /** What is paid for, as the merchant wrote it: a payment link's title. */
  purpose?: string | undefined;
  /** The merchant's reference of a payment request. */
  reference?: string | undefined;
}

export function paymentSummary(
  { storeName, amountCents, currency, purpose, reference }: SummaryOf,
  t: Messages,
): SafeHtml {
  return html`<header class="summary">
<p class="eyebrow">${t.payTo}</p>
<h1 class="store">${storeName}</h1>
${purpose !== undefined && html`<p class="purpose">${purpose}</p>\n`}<p class="amount">${formatAmount(amountCents, currency)}</p>
${reference !== undefined && html`<p class="reference">${t.reference(reference)}</p>\n`}</header>`;
}

export interface PayerFormOptions {
  /** Where the form posts: the page's own URL. */
  action: string;
  amountCents: number;
  currency: string;
  chosen?: ProviderCode | string | undefined;
  phone?: string | undefined;
  errors?: HostedPaymentFormErrors | undefined;
  /** Shown above the fields, e.g. why the previous attempt did not go through. */
  notice?: SafeHtml | undefined;
}

/** The five providers as large radio cards, the phone, and the pay button with the amount on it. */
export function payerForm(
  { action, amountCents, currency, chosen, phone = '', errors = {}, notice }: PayerFormOptions,
  t: Messages,
): SafeHtml {
  const refusal = errors.refusedBy && t.providerRefused(providerNames[errors.refusedBy]);
  return html`<form class="content" method="post" action="${action}" novalidate>
${notice}${refusal && html`<p class="alert" role="alert">${refusal}</p>`}
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
<button class="button" type="submit">${t.pay(formatAmount(amountCents, currency))}</button>
<p class="note">${t.payNote}</p>
</form>`;
}
