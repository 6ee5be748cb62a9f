import { countryOfNumber } from '#shared/domain/phone-numbers.ts';
import { defaultCountry } from '#shared/domain/uemoa-countries.ts';
import type { SandboxCheckout } from '#shared/operations/sandbox-checkout.ts';
import { countryTexts } from '#shared/pages/country-choice.ts';
import { formatAmount, formatPhone } from '#shared/pages/format.ts';
import { html } from '#shared/pages/html.ts';
import { layout } from '#shared/pages/layout.ts';
import { messages, providerNames } from '#shared/pages/messages.ts';
import { ownUrl, type PageContext } from '#shared/pages/payment-page.ts';
import { sandboxNumberBases, sandboxPhonesOf } from '#shared/providers/sandbox.ts';

export const sandboxCheckoutUrl = (baseUrl: string, providerReference: string) =>
  `${baseUrl}/sandbox/provider/checkout/${encodeURIComponent(providerReference)}`;

/**
 * The sandbox provider's approval screen, in the chosen provider's colours, marked everywhere as a
 * sandbox so nobody mistakes it for the real provider (the layout's test-mode ribbon above it,
 * "Sandbox" in its header). It lists the test numbers, since the number
 * the payer approves with decides what the provider reports.
 */
export function sandboxCheckoutPage(
  { collection, merchantName }: SandboxCheckout,
  context: PageContext,
  retry?: { payerPhone: string },
): string {
  const { language, baseUrl } = context;
  const t = messages[language];
  const provider = providerNames[collection.provider];
  const pageUrl = sandboxCheckoutUrl(baseUrl, collection.providerReference);
  const phone = retry ? retry.payerPhone : (collection.payerPhone ?? '');
  // The test numbers of the payer's country: the six of any other country work the same way.
  const country = (collection.payerPhone && countryOfNumber(collection.payerPhone)) || defaultCountry;
  const content = html`<header class="provider-header brand-${collection.provider}">
<span>${provider} · Sandbox</span>
</header>
<div class="content">
<p>${t.sandboxIntro(provider)}</p>
<dl class="facts">
${merchantName && html`<dt>${t.merchant}</dt><dd>${merchantName}</dd>`}
<dt>${t.amount}</dt><dd>${formatAmount(collection.amountCents, collection.currency)}</dd>
</dl>
<form method="post" action="${ownUrl(pageUrl, context)}" novalidate>
<label class="field" for="payerPhone">${t.payerPhone}</label>
<input class="input" type="tel" id="payerPhone" name="payerPhone" value="${phone}" placeholder="${formatPhone(`${sandboxNumberBases[country]}01`)}" inputmode="tel" autocomplete="tel" maxlength="32"${retry ? html` aria-invalid="true" aria-describedby="phone-error"` : ''}>
${retry && html`<p class="field-error" id="phone-error" role="alert">${countryTexts(country, language).phoneInvalid}</p>`}
<div class="actions">
<button class="button button-approve" type="submit" name="action" value="approve">${t.approve}</button>
<button class="button button-decline" type="submit" name="action" value="decline">${t.decline}</button>
</div>
</form>
<h2 class="tests-title">${t.testNumbers}</h2>
<table class="tests">
<tbody>
${Object.entries(sandboxPhonesOf(country)).map(
  ([number, behaviour]) => html`<tr><td>${formatPhone(number)}</td><td>${t.behaviours[behaviour]}</td></tr>
`,
)}<tr><td>${t.otherNumbers}</td><td>${t.behaviours.success}</td></tr>
</tbody>
</table>
</div>`;
  return layout({
    language,
    title: `${provider} · Sandbox`,
    content,
    pageUrl,
  });
}
