import type { PaymentRequest } from '#shared/data/payment-request.ts';
import { dayAndTime, maskPhone, shortReference } from '#shared/pages/format.ts';
import { html, type SafeHtml } from '#shared/pages/html.ts';
import { messages, providerNames } from '#shared/pages/messages.ts';
import type { PageContext } from '#shared/pages/payment-page.ts';

/**
 * What a payer keeps of a completed payment, on the payment page and the payment-link page alike:
 * the merchant's order reference and the service's own payment reference, each labelled as whose
 * it is (the payer quotes the first to the shop, the second to support), when, in the store's
 * time zone with the zone written, with which operator and number, and the operator's own
 * transaction id, which the operator's support asks for.
 */
export function receipt(request: PaymentRequest, context: PageContext): SafeHtml {
  const { transaction } = request;
  if (!transaction) return html``;
  const t = messages[context.language];
  const [day, time, zone] = dayAndTime(transaction.executedAt, context.timeZone, context.language);
  const provider = request.collectionMethod ?? request.paymentMethod;
  // A link's payment has no order of the merchant's: its reference is the service's own (`pl-…`).
  const order = request.paymentLinkId ? undefined : request.reference;
  return html`<dl class="facts receipt">
${order && html`<dt>${t.receiptOrder}</dt><dd class="receipt-order">${order}</dd>`}
<dt>${t.receiptReference}</dt><dd class="receipt-reference">${shortReference(transaction.id)}</dd>
<dt>${t.receiptDate}</dt><dd>${time ? t.dateTime(day, time, zone) : day}</dd>
<dt>${t.receiptProvider}</dt><dd>${providerNames[provider]}</dd>
${request.payerPhone && html`<dt>${t.receiptPhone}</dt><dd>${maskPhone(request.payerPhone)}</dd>`}
${request.providerReference && html`<dt class="receipt-id">${t.receiptProviderId}</dt><dd class="receipt-id">${request.providerReference}</dd>`}
</dl>`;
}
