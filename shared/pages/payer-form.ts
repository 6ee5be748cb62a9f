import type { Language } from '#shared/domain/languages.ts';
import { providersIn } from '#shared/domain/operator-countries.ts';
import { type ProviderCode, providerCodes } from '#shared/domain/payment-methods.ts';
import { readZoneNumber } from '#shared/domain/phone-numbers.ts';
import type { UemoaCountry } from '#shared/domain/uemoa-countries.ts';
import type { HostedPaymentFormErrors } from '#shared/operations/hosted-payment.ts';
import { countryChoice, countryTexts } from '#shared/pages/country-choice.ts';
import { formatAmount, localPhone } from '#shared/pages/format.ts';
import { html, type SafeHtml } from '#shared/pages/html.ts';
import { type Messages, providerNames } from '#shared/pages/messages.ts';
import { routedOnThisStage } from '#shared/providers/adapters.ts';
import type { OperatorsDown } from '#shared/providers/routing.ts';

/**
 * The parts a payer sees on every page that takes a payment (the payment page, the payment-link
 * page): whom and how much they pay, then the providers and the phone. One markup, so the pages
 * look and read the same and a fix to one reaches all.
 */

export interface SummaryOf {
  storeName: string;
  amountCents: number;
  currency: string;
  /** What is paid for, as the merchant wrote it: a payment link's title, a request's description. */
  purpose?: string | undefined;
  /** The merchant's reference of a payment request: its order number, labelled as the merchant's. */
  reference?: string | undefined;
}

/**
 * Whom and how much, compact: on a 360 × 640 screen the form must fit below it. The merchant is
 * named in full; a business has no logo to show (no such field), and initials were no trust signal.
 */
export function paymentSummary(
  { storeName, amountCents, currency, purpose, reference }: SummaryOf,
  t: Messages,
): SafeHtml {
  return html`<header class="summary">
<p class="eyebrow">${t.payTo}</p>
<h1 class="store">${storeName}</h1>
${purpose !== undefined && html`<p class="purpose">${purpose}</p>\n`}<p class="amount">${formatAmount(amountCents, currency)}</p>
${reference !== undefined && html`<p class="reference">${t.orderReference(reference)}</p>\n`}</header>`;
}

/** An operator's name in its brand's colours: a chip of text, no copied logo. */
export const providerChip = (code: ProviderCode) =>
  html`<span class="chip brand-${code}">${providerNames[code]}</span>`;

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
  /** The payer's country: its providers are offered, a national number is read there. */
  country: UemoaCountry;
  language: Language;
  /**
   * A payment is under way with the provider: the form is the other way to pay, below the way to
   * check on it, so nothing is chosen for the payer and its button is not the page's main one.
   */
  anotherWay?: boolean | undefined;
  /** Operators down right now: not offered, and the form says so. */
  down?: OperatorsDown | undefined;
}

const providerCard = (code: ProviderCode, chosen: string | undefined) => html`<label class="provider">
${providerChip(code)}
<input type="radio" name="paymentMethod" value="${code}"${code === chosen ? html` checked` : ''}>
</label>
`;

/**
 * The payer's country (a form of its own), then the provider among that country's (the chosen
 * one, or the first offered, the others one tap away), the phone after the country's code, and
 * the pay button with the amount on it. After a rejected submit, a summary of what is wrong opens
 * the form (the GOV.UK error summary, kept to a title and one line a field), each line linked to
 * its field, and the first wrong field takes the focus (which scrolls it into view): the page
 * reloads at its top, where the payer's eye is, and Pay stays in the first screen.
 */
export function payerForm(
  {
    action,
    amountCents,
    currency,
    chosen,
    phone = '',
    errors = {},
    notice,
    country,
    language,
    anotherWay,
    down,
  }: PayerFormOptions,
  t: Messages,
): SafeHtml {
  const refusal = errors.refusedBy && t.providerRefused(providerNames[errors.refusedBy]);
  const here = countryTexts(country, language);
  const routed = providersIn(country, providerCodes).filter((code) => routedOnThisStage(code, country));
  const isDown = (code: ProviderCode) => down?.has(`${code}:${country}`) === true;
  const offered = routed.filter((code) => !isDown(code));
  // The country's operators that are down, named once: the payer knows why theirs is missing.
  const downHere = routed.filter(isDown).map((code) => providerNames[code]);
  const downNotice =
    downHere.length > 0 && errors.paymentMethod !== 'down'
      ? html`<p class="notice" id="operators-down">${t.operatorDown(downHere.join(', '))}</p>`
      : undefined;
  // Under way elsewhere: nothing is chosen for the payer; otherwise the chosen or the first offered.
  const preferred = anotherWay ? undefined : (offered.find((code) => code === chosen) ?? offered[0]);
  const phoneError =
    errors.payerPhone === 'required' ? t.phoneRequired : errors.payerPhone && here.phoneInvalid;
  const unserved =
    errors.paymentMethod === 'unserved' && chosen && chosen in providerNames
      ? here.unserved(
          providerNames[chosen as ProviderCode],
          readZoneNumber(phone, country)?.country ?? country,
        )
      : undefined;
  const downChosen =
    errors.paymentMethod === 'down' && chosen && chosen in providerNames
      ? t.operatorDown(providerNames[chosen as ProviderCode])
      : undefined;
  const methodError = unserved ?? downChosen ?? (errors.paymentMethod && t.providerRequired);
  const problems = [
    methodError && html`<li><a href="#method-error">${methodError}</a></li>`,
    phoneError && html`<li><a href="#payerPhone">${phoneError}</a></li>`,
  ].filter(Boolean);
  return html`${countryChoice(action, country, language)}
<form class="content" method="post" action="${action}" novalidate>
<input type="hidden" name="payerCountry" value="${country}">
${notice}${refusal && html`<p class="alert" role="alert">${refusal}</p>`}${downNotice}
${problems.length > 0 && html`<div class="error-summary" role="alert" id="form-errors"><h2>${t.fixErrors}</h2><ul>${problems}</ul></div>`}
${anotherWay && html`<h2>${t.tryAnother}</h2><p class="hint">${t.tryAnotherHint}</p>`}
<fieldset${errors.paymentMethod ? html` aria-describedby="method-error"` : ''}>
<legend>${t.chooseProvider}</legend>
${methodError && html`<p class="field-error" id="method-error">${methodError}</p>`}
${
  offered.length === 0
    ? html`<p class="notice" id="no-provider">${here.noProvider}</p>`
    : preferred && offered.length > 1
      ? html`<div class="providers">${providerCard(preferred, preferred)}</div>
<details class="more-providers">
<summary>${t.changeProvider}</summary>
<div class="providers">
${offered.filter((code) => code !== preferred).map((code) => providerCard(code, preferred ?? chosen))}</div>
</details>`
      : html`<div class="providers">
${offered.map((code) => providerCard(code, anotherWay ? undefined : (preferred ?? chosen)))}</div>`
}
</fieldset>
<label class="field" for="payerPhone">${t.phoneLabel}</label>
<div class="phone">
<span class="phone-prefix" aria-hidden="true">${here.callingCode}</span>
<input class="input" type="tel" id="payerPhone" name="payerPhone" value="${localPhone(phone)}" placeholder="${here.placeholder}" inputmode="tel" autocomplete="tel-national" maxlength="32" required aria-describedby="${phoneError ? 'phone-error' : 'phone-hint'}"${phoneError ? html` aria-invalid="true" autofocus` : ''}>
</div>
${phoneError ? html`<p class="field-error" id="phone-error">${phoneError}</p>` : html`<p class="hint" id="phone-hint">${here.phoneHint}</p>`}
<button class="button${anotherWay ? ' button-secondary' : ''}" type="submit">${t.pay(formatAmount(amountCents, currency))}</button>
<p class="note">${t.payNote}</p>
</form>`;
}
