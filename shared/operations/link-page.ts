import { canReceivePayments, type PaymentLink } from '#shared/data/payment-link.ts';
import { findPaymentRequest, type PaymentRequest } from '#shared/data/payment-request.ts';
import { uuidPattern } from '#shared/domain/ids.ts';
import { payerCountryOf } from '#shared/domain/payer-country.ts';
import { PaymentLinkIsInvalid, PaymentLinkNotFound } from '#shared/errors/payment-links.ts';
import { PaymentRequestExpired } from '#shared/errors/payment-requests.ts';
import { OperatorUnavailable, ProviderRefused } from '#shared/errors/providers.ts';
import { Conflict } from '#shared/errors/request.ts';
import {
  checkPayerForm,
  type HostedPaymentForm,
  type HostedPaymentFormErrors,
} from '#shared/operations/hosted-payment.ts';
import { openPaymentOf, retryThroughLink } from '#shared/operations/link-retry.ts';
import { paymentLinkById, payThroughLink } from '#shared/operations/payment-links.ts';
import { asSeenAt } from '#shared/operations/payment-request-view.ts';
import { operatorDown } from '#shared/providers/routing.ts';

/**
 * What the public payment-link page does (`/pl/{id}`): anyone holding the link picks a provider
 * and a phone and is sent to the provider; the provider's return brings them back to the link
 * page with `?payment=<id>`, which shows that payment's outcome. As on the hosted payment page,
 * only the provider's verified callback decides the outcome.
 */

/** Link ids are random UUIDs; anything else cannot be one and is not looked up. */
export async function linkForPage(id: string): Promise<PaymentLink> {
  if (!uuidPattern.test(id)) throw new PaymentLinkNotFound();
  return paymentLinkById(id);
}

export interface LinkPageView {
  link: PaymentLink;
  /** The payment named in `?payment=`, only when it was made through this link. */
  payment?: PaymentRequest | undefined;
}

export async function linkPageView(id: string, paymentId: string | undefined): Promise<LinkPageView> {
  const link = await linkForPage(id);
  if (!paymentId || !uuidPattern.test(paymentId)) return { link };
  // Consistent: the customer arrives right after the callback that completed the payment.
  const payment = await findPaymentRequest(paymentId, true);
  // Any payment id can be pasted into the URL; another link's or merchant's payment is not shown here.
  return payment?.paymentLinkId === link.id ? { link, payment: asSeenAt(payment) } : { link };
}

export type LinkPageSubmission =
  /** Started: the customer goes to the provider's page, keeping the attempt's token. */
  | { outcome: 'checkout'; checkoutUrl: string; attemptToken: string }
  /** The form again, as the customer filled it, with what is wrong (and the open payment it retries). */
  | {
      outcome: 'retry';
      link: PaymentLink;
      payment?: PaymentRequest | undefined;
      form: HostedPaymentForm;
      errors: HostedPaymentFormErrors;
    }
  /** Paid already, switched off, or another customer's attempt holds the link. */
  | { outcome: 'unavailable'; link: PaymentLink };

/**
 * The customer submitted the link page's form; `attemptToken` is this browser's earlier attempt's.
 * `paymentId` names the customer's earlier payment when the form came back after it failed: a
 * payment still open is tried again (the same request, another provider or number).
 */
export async function payOnLinkPage(
  id: string,
  form: HostedPaymentForm,
  attemptToken: string | undefined,
  baseUrl: string,
  paymentId?: string | undefined,
): Promise<LinkPageSubmission> {
  const link = await linkForPage(id);
  // Before the form's errors: a phone typo is not worth fixing on a link that cannot be paid.
  if (!canReceivePayments(link)) return { outcome: 'unavailable', link };
  const checked = checkPayerForm(form, payerCountryOf(form, link));
  if ('errors' in checked) return { outcome: 'retry', link, form: checked.form, errors: checked.errors };
  const { method, phone } = checked;
  const earlier = await openPaymentOf(link, paymentId);
  if (await operatorDown(method, { phone }, 'collection'))
    return { outcome: 'retry', link, payment: earlier, form, errors: { paymentMethod: 'down' } };
  try {
    const paid = earlier
      ? await retryThroughLink(
          link,
          earlier,
          { paymentMethod: method, payerPhone: phone, attemptToken },
          baseUrl,
        )
      : await payThroughLink(link.id, { paymentMethod: method, payerPhone: phone, attemptToken }, baseUrl);
    if (!paid.request.checkoutUrl)
      throw new Error(`provider ${method} started a redirect collection without a checkout URL`);
    return { outcome: 'checkout', checkoutUrl: paid.request.checkoutUrl, attemptToken: paid.attemptToken };
  } catch (error) {
    // Read again: the link may have been paid, taken or switched off since, and the page says which.
    if (error instanceof PaymentLinkIsInvalid) return { outcome: 'unavailable', link: await linkForPage(id) };
    // Expired (or paid) while the customer filled the form: a new payment on the next submit.
    if (error instanceof PaymentRequestExpired || error instanceof Conflict)
      return { outcome: 'retry', link, form, errors: {} };
    if (error instanceof ProviderRefused)
      return { outcome: 'retry', link, payment: earlier, form, errors: { refusedBy: method } };
    if (error instanceof OperatorUnavailable)
      return { outcome: 'retry', link, payment: earlier, form, errors: { paymentMethod: 'down' } };
    throw error;
  }
}
