import type { PaymentRequest } from '#shared/data/payment-request.ts';
import { dayAndTime, maskPhone, shortReference } from '#shared/pages/format.ts';
import { html, type SafeHtml } from '#shared/pages/html.ts';
import { type Messages, providerNames } from '#shared/pages/messages.ts';

/**
 * What a payer keeps of a completed payment, on the payment page and the payment-link page alike:
 * a reference short enough to read out, when, with which operator and number, and the operator's
 * own transaction id, which the operator's support asks for.
 */
export function receipt(request: PaymentRequest, t: Messages): SafeHtml {
  const { transaction } = request;
  if (!transaction) return html``;
  const [day, time] = dayAndTime(transaction.executedAt);
  const provider = request.collectionMethod ?? request.paymentMethod;
  return html`<dl class="facts receipt">
<dt>${t.receiptReference}</dt><dd class="receipt-reference">${shortReference(transaction.id)}</dd>
<dt>${t.receiptDate}</dt><dd>${time ? t.dateTime(day, time) : day}</dd>
<dt>${t.receiptProvider}</dt><dd>${providerNames[provider]}</dd>
${request.payerPhone && html`<dt>${t.receiptPhone}</dt><dd>${maskPhone(request.payerPhone)}</dd>`}
${request.providerReference && html`<dt class="receipt-id">${t.receiptProviderId}</dt><dd class="receipt-id">${request.providerReference}</dd>`}
</dl>`;
}
