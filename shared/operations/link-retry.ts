import { randomBytes } from 'node:crypto';
import { attemptWrite, type PaymentLink } from '#shared/data/payment-link.ts';
import { findPaymentRequest, type PaymentRequest } from '#shared/data/payment-request.ts';
import { transactWrite } from '#shared/data/transact.ts';
import { uuidPattern } from '#shared/domain/ids.ts';
import type { ProviderCode } from '#shared/domain/payment-methods.ts';
import { type LinkPayment, startLinkCollection } from '#shared/operations/payment-links.ts';
import { asSeenAt } from '#shared/operations/payment-request-view.ts';

/**
 * A customer whose payment through a link failed tries again on the same payment request, as on
 * the hosted payment page: the request stays one, and ends paid, expired or cancelled.
 */

/** The customer's earlier payment through `link`, while it is still open; anything else is none. */
export async function openPaymentOf(
  link: PaymentLink,
  paymentId: string | undefined,
): Promise<PaymentRequest | undefined> {
  if (!paymentId || !uuidPattern.test(paymentId)) return undefined;
  const found = await findPaymentRequest(paymentId, true);
  const payment = found && asSeenAt(found);
  return payment?.paymentLinkId === link.id && payment.status === 'pending' ? payment : undefined;
}

/**
 * Starts another collection on the customer's open payment. A single-use link is claimed for it
 * again first (its failed attempt let the link go): another customer's attempt holding it now
 * makes this one wait (E_PAYMENT_LINK_IS_INVALID), as a new payment would.
 */
export async function retryThroughLink(
  link: PaymentLink,
  request: PaymentRequest,
  payment: { paymentMethod: ProviderCode; payerPhone: string; attemptToken?: string | undefined },
  baseUrl: string,
): Promise<LinkPayment> {
  const attemptToken = payment.attemptToken ?? randomBytes(16).toString('hex');
  if (!link.allowMultiplePayments)
    await transactWrite([attemptWrite(link, { paymentRequestId: request.id, token: attemptToken })]);
  const started = await startLinkCollection(link, request, payment, baseUrl, { payerMayRetry: true });
  return { request: started, attemptToken };
}
