import type { Store } from '#shared/data/store.ts';
import type { Language } from '#shared/domain/languages.ts';
import type { Cents } from '#shared/domain/money.ts';
import { smsPacks } from '#shared/operations/sms-credit.ts';
import { errorSummary } from '#shared/pages/components.ts';
import { csrfField } from '#shared/pages/dashboard-chrome.ts';
import { dashboardTemplate } from '#shared/pages/dashboard-template.ts';
import { type DashboardPageContext, dashboardUrl } from '#shared/pages/dashboard-url.ts';
import { formatAmount } from '#shared/pages/format.ts';
import { html, type SafeHtml } from '#shared/pages/html.ts';

/**
 * Buying SMS credit on the SMS page (issue 34, item 4): a pack and the store that pays, a check
 * step with the price and the store's available balance, then the purchase. Short of balance, the
 * check step says so and offers no button.
 */
const text = {
  fr: {
    title: 'Acheter du crédit SMS',
    intro: (price: string) => `${price} le SMS, payé sur le solde disponible d’un point de vente.`,
    pack: 'Combien de SMS ?',
    packLabel: (segments: number, price: string) => `${segments} SMS · ${price}`,
    store: 'Payé par le point de vente',
    available: (amount: string) => `disponible : ${amount}`,
    continue: 'Voir le prix',
    checkTitle: 'Vérifiez l’achat',
    segments: 'SMS ajoutés au solde',
    price: 'Prix',
    paidBy: 'Payé par',
    availableLabel: 'Disponible',
    buy: (price: string) => `Acheter pour ${price}`,
    change: 'Modifier',
    short: (price: string, available: string) =>
      `Le solde disponible (${available}) ne couvre pas le prix (${price}) : rien n’a été acheté ni débité.`,
    errorSummary: 'Il y a un problème',
    errors: { segments: 'Choisissez un nombre de SMS.', storeId: 'Choisissez le point de vente qui paie.' },
  },
  en: {
    title: 'Buy SMS credit',
    intro: (price: string) => `${price} an SMS, paid from a point of sale’s available balance.`,
    pack: 'How many SMS?',
    packLabel: (segments: number, price: string) => `${segments} SMS · ${price}`,
    store: 'Paid by the point of sale',
    available: (amount: string) => `available: ${amount}`,
    continue: 'See the price',
    checkTitle: 'Check the purchase',
    segments: 'SMS added to the balance',
    price: 'Price',
    paidBy: 'Paid by',
    availableLabel: 'Available',
    buy: (price: string) => `Buy for ${price}`,
    change: 'Change',
    short: (price: string, available: string) =>
      `The available balance (${available}) does not cover the price (${price}): nothing was bought or charged.`,
    errorSummary: 'There is a problem',
    errors: { segments: 'Choose a number of SMS.', storeId: 'Choose the point of sale that pays.' },
  },
} satisfies Record<Language, unknown>;

export interface CreditStore {
  store: Store;
  availableCents: Cents;
}

export type SmsCreditField = 'segments' | 'storeId';

/** The form on the SMS page, for roles that may buy. */
export function buySmsCreditForm(
  context: DashboardPageContext & { csrfToken: string },
  stores: readonly CreditStore[],
  segmentPriceCents: Cents,
  state: { segments?: string; storeId?: string; errors?: readonly SmsCreditField[] } = {},
): SafeHtml {
  const t = text[context.language];
  const errors = state.errors ?? [];
  const chosen = state.segments ?? String(smsPacks[0]);
  return html`<h2 id="buy-credit">${t.title}</h2>
${errorSummary(
  t.errorSummary,
  errors.map((field) => ({ field, message: t.errors[field] })),
)}
<p class="hint">${t.intro(formatAmount(segmentPriceCents))}</p>
<form method="post" action="${dashboardUrl(context, '/sms/credit')}" novalidate>
${csrfField(context.csrfToken)}
<fieldset id="segments">
<legend class="field">${t.pack}</legend>
${errors.includes('segments') && html`<p class="field-error">${t.errors.segments}</p>`}
${smsPacks.map(
  (segments) =>
    html`<label class="provider"><input type="radio" name="segments" value="${String(segments)}"${chosen === String(segments) ? html` checked` : ''}><span class="provider-name">${t.packLabel(segments, formatAmount(segments * segmentPriceCents))}</span></label>`,
)}
</fieldset>
<label class="field" for="storeId">${t.store}</label>
${errors.includes('storeId') && html`<p class="field-error" id="storeId-error">${t.errors.storeId}</p>`}
<select class="input" id="storeId" name="storeId">
${stores.map(
  ({ store, availableCents }) =>
    html`<option value="${store.id}"${state.storeId === store.id ? html` selected` : ''}>${store.name} (${t.available(formatAmount(availableCents, store.currency))})</option>`,
)}
</select>
<button class="button" type="submit">${t.continue}</button>
</form>`;
}

/** The check step: what is bought, its price, who pays; the button only when the balance covers it. */
export function checkSmsCreditPage(
  context: DashboardPageContext & { csrfToken: string },
  purchase: {
    segments: number;
    priceCents: Cents;
    store: Store;
    availableCents: Cents;
    idempotencyKey: string;
  },
  /** Refused on the balance after the check (spent meanwhile). */
  refused = false,
): string {
  const t = text[context.language];
  const price = formatAmount(purchase.priceCents, purchase.store.currency);
  const available = formatAmount(purchase.availableCents, purchase.store.currency);
  const short = refused || purchase.availableCents < purchase.priceCents;
  return dashboardTemplate(context, {
    section: 'sms',
    title: t.checkTitle,
    pageUrl: `${context.baseUrl}/dashboard/sms`,
    content: html`<div class="panel">
<h1>${t.checkTitle}</h1>
${short && html`<div class="alert" role="alert" id="sms-credit-refused"><p>${t.short(price, available)}</p></div>`}
<dl class="facts" data-testid="sms-credit-check">
<dt>${t.segments}</dt><dd data-testid="sms-credit-segments">${String(purchase.segments)}</dd>
<dt>${t.price}</dt><dd data-testid="sms-credit-price"><strong>${price}</strong></dd>
<dt>${t.paidBy}</dt><dd>${purchase.store.name}</dd>
<dt>${t.availableLabel}</dt><dd>${available}</dd>
</dl>
<form method="post" action="${dashboardUrl(context, '/sms/credit')}">
${csrfField(context.csrfToken)}
<input type="hidden" name="segments" value="${String(purchase.segments)}">
<input type="hidden" name="storeId" value="${purchase.store.id}">
<input type="hidden" name="idempotencyKey" value="${purchase.idempotencyKey}">
${!short && html`<button class="button" type="submit">${t.buy(price)}</button>`}
</form>
<p class="note"><a href="${dashboardUrl(context, '/sms')}#buy-credit">${t.change}</a></p>
</div>`,
  });
}
