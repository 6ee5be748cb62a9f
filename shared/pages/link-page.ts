import { canReceivePayments, type PaymentLink } from '#shared/data/payment-link.ts';
import type { PaymentRequest } from '#shared/data/payment-request.ts';
import { payerCountryOf } from '#shared/domain/payer-country.ts';
import type { HostedPaymentForm, HostedPaymentFormErrors } from '#shared/operations/hosted-payment.ts';
import type { LinkPageView } from '#shared/operations/link-page.ts';
import { formatAmount } from '#shared/pages/format.ts';
import { html, type SafeHtml } from '#shared/pages/html.ts';
import { layout } from '#shared/pages/layout.ts';
import { type Messages, messages } from '#shared/pages/messages.ts';
import { payerForm, paymentSummary } from '#shared/pages/payer-form.ts';
import { failureReason, ownUrl, type PageContext, waitingPage } from '#shared/pages/payment-page.ts';
import { receipt } from '#shared/pages/receipt.ts';

export const linkPageUrl = (baseUrl: string, id: string) => `${baseUrl}/pl/${encodeURIComponent(id)}`;

/** Where the provider sends the customer back to: the link page, showing this payment. */
const linkPaymentUrl = (baseUrl: string, link: PaymentLink, payment: PaymentRequest) => {
  const url = new URL(linkPageUrl(baseUrl, link.id));
  url.searchParams.set('payment', payment.id);
  return url.href;
};

export interface LinkPageOptions {
  form?: HostedPaymentForm | undefined;
  errors?: HostedPaymentFormErrors | undefined;
  /** How many times the page has reloaded itself waiting for a payment's callback. */
  attempt?: number | undefined;
}

/**
 * `/pl/{id}`: what the link asks for and the form to pay it, as long as the link can receive
 * payments; once a single-use link is paid or the link is switched off, only why not. With
 * `?payment=`, the outcome of the customer's payment first: confirmed, failed (with the form again
 * while the link is open), or still waiting for the provider, reloading itself like the return page.
 */
export function linkPage(
  { link, payment }: LinkPageView,
  context: PageContext,
  { form, errors, attempt = 0 }: LinkPageOptions = {},
): string {
  const { language, baseUrl } = context;
  const t = messages[language];
  // A failed attempt on a payment still open brings the form back (below), to try again on it.
  if (payment?.status === 'pending' && !payment.attemptError)
    return waitingPage(
      payment,
      context,
      attempt,
      linkPaymentUrl(baseUrl, link, payment),
      linkPageUrl(baseUrl, link.id),
    );
  const open = canReceivePayments(link);
  let content: SafeHtml;
  if (payment?.status === 'success') content = paidOutcome(link, payment, context);
  else if (payment && !open) content = failedOutcome(link, payment, t);
  else if (!open) content = closed(link, t);
  else {
    content = html`${paymentSummary(
      {
        storeName: link.storeName,
        purpose: link.title,
        amountCents: link.amountCents,
        currency: link.currency,
      },
      t,
    )}
${payerForm(
  {
    action: ownUrl(
      payment?.status === 'pending' ? linkPaymentUrl(baseUrl, link, payment) : linkPageUrl(baseUrl, link.id),
      context,
    ),
    amountCents: link.amountCents,
    currency: link.currency,
    chosen: form?.paymentMethod ?? payment?.collectionMethod,
    country: payerCountryOf(form, { storeCountry: link.storeCountry, payerPhone: payment?.payerPhone }),
    language,
    phone: form?.payerPhone ?? payment?.payerPhone,
    errors,
    notice: payment && failureNotice(payment, t),
    down: context.operatorsDown,
  },
  t,
)}`;
  }
  return layout({
    language,
    title: `${link.title} · ${link.storeName}`,
    content,
    pageUrl: payment ? linkPaymentUrl(baseUrl, link, payment) : linkPageUrl(baseUrl, link.id),
  });
}

/**
 * The answer (409) to a payment the link cannot take now: it is paid or switched off, or another
 * customer's attempt holds it for a few minutes (the customer may look again later).
 */
export function linkUnavailablePage(link: PaymentLink, context: PageContext): string {
  const { language, baseUrl } = context;
  const t = messages[language];
  const pageUrl = linkPageUrl(baseUrl, link.id);
  const content = canReceivePayments(link)
    ? status(
        'info',
        '!',
        t.linkBusyTitle,
        html`<p>${t.linkBusyText}</p>
${whatLine(link)}
<a class="button" href="${ownUrl(pageUrl, context)}">${t.tryAgain}</a>`,
      )
    : closed(link, t);
  return layout({ language, title: `${link.title} · ${link.storeName}`, content, pageUrl });
}

function status(tone: 'success' | 'error' | 'info', icon: string, title: string, body: SafeHtml): SafeHtml {
  return html`<section class="status status-${tone}">
<div class="status-icon" aria-hidden="true">${icon}</div>
<h1>${title}</h1>
${body}
</section>`;
}

const whatLine = (link: PaymentLink) =>
  html`<p class="muted">${link.title} · ${formatAmount(link.amountCents, link.currency)} · ${link.storeName}</p>`;

/** Why a link takes no payment: switched off by the merchant, or a single-use link paid. */
const closedReason = (link: PaymentLink, t: Messages) =>
  link.active
    ? { title: t.linkPaidTitle, text: t.linkPaidText }
    : { title: t.linkInactiveTitle, text: t.linkInactiveText };

function closed(link: PaymentLink, t: Messages): SafeHtml {
  const { title, text } = closedReason(link, t);
  return status('info', link.active ? '✓' : '!', title, html`<p>${text}</p>\n${whatLine(link)}`);
}

function paidOutcome(link: PaymentLink, payment: PaymentRequest, context: PageContext): SafeHtml {
  const t = messages[context.language];
  const amount = formatAmount(payment.amountCents, payment.currency);
  return status(
    'success',
    '✓',
    t.paidTitle,
    html`<p>${t.paidText(amount, payment.storeName)}</p>
<p class="muted">${link.title}</p>
${receipt(payment, context)}`,
  );
}

/** A failed payment on a link paid meanwhile by someone else, or switched off: nothing more to do here. */
function failedOutcome(link: PaymentLink, payment: PaymentRequest, t: Messages): SafeHtml {
  const amount = formatAmount(payment.amountCents, payment.currency);
  const closedNow = closedReason(link, t);
  return status(
    'error',
    '✕',
    t.failedTitle,
    html`<p>${t.failedText(amount, payment.storeName)}</p>
<p>${failureReason(payment, t)} ${t.noMoneyTaken}</p>
<p class="muted">${closedNow.title}. ${closedNow.text}</p>
${whatLine(link)}`,
  );
}

function failureNotice(payment: PaymentRequest, t: Messages): SafeHtml {
  return html`<p class="alert" role="alert"><strong>${t.failedTitle}.</strong> ${failureReason(payment, t)} ${t.noMoneyTaken} ${t.tryAgainBelow}</p>
`;
}
