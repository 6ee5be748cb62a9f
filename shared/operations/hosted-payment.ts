import { findPaymentRequest, type PaymentRequest } from '#shared/data/payment-request.ts';
import { uuidPattern } from '#shared/domain/ids.ts';
import { providerServes } from '#shared/domain/operator-countries.ts';
import { payerCountryOf } from '#shared/domain/payer-country.ts';
import { payerMayRetry } from '#shared/domain/payment-lifetime.ts';
import { canonicalPaymentMethod, isProviderCode, type ProviderCode } from '#shared/domain/payment-methods.ts';
import { readZoneNumber } from '#shared/domain/phone-numbers.ts';
import { isFollowableReturnUrl } from '#shared/domain/return-urls.ts';
import type { UemoaCountry } from '#shared/domain/uemoa-countries.ts';
import { PaymentRequestExpired, PaymentRequestNotFound } from '#shared/errors/payment-requests.ts';
import { OperatorUnavailable, ProviderRefused } from '#shared/errors/providers.ts';
import { Conflict } from '#shared/errors/request.ts';
import { asSeenAt } from '#shared/operations/payment-request-view.ts';
import { startCollection } from '#shared/operations/payment-requests.ts';
import { routedOnThisStage } from '#shared/providers/adapters.ts';
import { operatorDown } from '#shared/providers/routing.ts';

/**
 * What the hosted payment page does (`/payment/{id}`): the payer, who holds only the request's
 * id, chooses a provider and a phone and is sent to the provider; the provider sends them back
 * to the return page, which waits for the provider's callback and then sends them on to the
 * merchant. Nothing here completes a payment: only a verified callback does.
 */

/**
 * The request behind a page URL. Ids are random UUIDs, so holding one is what entitles a payer to
 * see it; anything that is not a UUID cannot be one and is not looked up.
 */
export async function hostedPaymentRequest(id: string, consistent = false): Promise<PaymentRequest> {
  const request = uuidPattern.test(id) ? await findPaymentRequest(id, consistent) : undefined;
  if (!request) throw new PaymentRequestNotFound();
  // As every answer shows it: past its time, it is expired, whatever the background job has done.
  return asSeenAt(request);
}

export interface HostedPaymentForm {
  paymentMethod?: string | undefined;
  payerPhone?: string | undefined;
  /** The payer's country, as the page's country choice posts it. */
  payerCountry?: string | undefined;
}

export interface HostedPaymentFormErrors {
  /**
   * `unserved`: the provider does not take payments in the country of the payer's number;
   * `down`: it is down there right now.
   */
  paymentMethod?: 'required' | 'unserved' | 'down';
  payerPhone?: 'required' | 'format';
  /** The provider turned the payer down at once. */
  refusedBy?: ProviderCode;
}

export type HostedPaymentSubmission =
  /** Started: the payer goes to the provider's page. */
  | { outcome: 'checkout'; checkoutUrl: string }
  /** The request is no longer pending: its page shows how it ended. */
  | { outcome: 'closed' }
  /** The form again, as the payer filled it, with what is wrong. */
  | { outcome: 'retry'; request: PaymentRequest; form: HostedPaymentForm; errors: HostedPaymentFormErrors };

/**
 * The provider and the phone a payer posted, or what is wrong with them. A national number is read
 * in `country`; a provider must serve the country of the number. The form that comes back after an
 * error names the number's country, so it offers that country's providers.
 */
export function checkPayerForm(
  form: HostedPaymentForm,
  country: UemoaCountry,
): { method: ProviderCode; phone: string } | { errors: HostedPaymentFormErrors; form: HostedPaymentForm } {
  // As the API does, a form posting an alias (`orange_money`) means the provider it names.
  const given = form.paymentMethod && canonicalPaymentMethod(form.paymentMethod);
  const method = given && isProviderCode(given) ? given : undefined;
  const number = readZoneNumber(form.payerPhone, country);
  const served =
    method && number && providerServes(method, number.country) && routedOnThisStage(method, number.country);
  if (method && number && served) return { method, phone: number.e164 };
  const errors: HostedPaymentFormErrors = {};
  if (!method) errors.paymentMethod = 'required';
  else if (number && !served) errors.paymentMethod = 'unserved';
  if (!number) errors.payerPhone = (form.payerPhone ?? '').trim() === '' ? 'required' : 'format';
  return { errors, form: { ...form, payerCountry: number?.country ?? country } };
}

/**
 * The payer submitted the hosted page's form. A provider that refuses the payer at once leaves the
 * request pending: the form comes back with the refusal, to try another provider or number, as
 * after a declined payment.
 */
export async function payOnHostedPage(
  id: string,
  form: HostedPaymentForm,
  baseUrl: string,
): Promise<HostedPaymentSubmission> {
  const request = await hostedPaymentRequest(id, true);
  if (request.status !== 'pending') return { outcome: 'closed' };
  const checked = checkPayerForm(form, payerCountryOf(form, request));
  if ('errors' in checked) return { outcome: 'retry', request, form: checked.form, errors: checked.errors };
  const { method, phone } = checked;
  if (await operatorDown(method, { phone }, 'collection'))
    return { outcome: 'retry', request, form, errors: { paymentMethod: 'down' } };
  try {
    const started = await startCollection(request, 'redirect', method, phone, baseUrl, {
      payerMayRetry: payerMayRetry(request),
    });
    if (!started.checkoutUrl)
      throw new Error(`provider ${method} started a redirect collection without a checkout URL`);
    return { outcome: 'checkout', checkoutUrl: started.checkoutUrl };
  } catch (error) {
    // Expired (or paid) while the payer filled the form: the page shows how it ended.
    if (error instanceof PaymentRequestExpired || error instanceof Conflict) return { outcome: 'closed' };
    if (error instanceof OperatorUnavailable)
      return { outcome: 'retry', request, form, errors: { paymentMethod: 'down' } };
    if (!(error instanceof ProviderRefused)) throw error;
    return {
      outcome: 'retry',
      request: await hostedPaymentRequest(id, true),
      form,
      errors: { refusedBy: method },
    };
  }
}

export type ReturnDestination =
  /** No callback yet: the return page waits and looks again. */
  | { outcome: 'wait'; request: PaymentRequest }
  /** The payer came back without having started at a provider: back to the form. */
  | { outcome: 'form' }
  /** Completed: on to the merchant's success or error URL. */
  | { outcome: 'merchant'; url: string }
  /** Completed, but the merchant's URL cannot be followed from a page: the outcome is shown here. */
  | { outcome: 'outcome'; request: PaymentRequest };

/**
 * Where the payer goes on coming back from the provider; the provider's callback decides, never
 * this. A collection that failed brings the payer back to the form, which says why.
 */
export async function afterProvider(id: string): Promise<ReturnDestination> {
  // A strongly consistent read: the callback usually lands just before the payer does.
  const request = await hostedPaymentRequest(id, true);
  if (request.status !== 'pending') return destinationOf(request);
  if (request.providerReference && !request.attemptError) return { outcome: 'wait', request };
  // A link's payment is tried again on the link's page, which its return URLs are.
  return request.paymentLinkId && isFollowableReturnUrl(request.errorUrl)
    ? { outcome: 'merchant', url: request.errorUrl }
    : { outcome: 'form' };
}

/** An ended request's way back: the merchant's URL for its outcome, or the outcome on the page. */
export function destinationOf(
  request: PaymentRequest,
): Extract<ReturnDestination, { outcome: 'merchant' | 'outcome' }> {
  const url = request.status === 'success' ? request.successUrl : request.errorUrl;
  return isFollowableReturnUrl(url) ? { outcome: 'merchant', url } : { outcome: 'outcome', request };
}
