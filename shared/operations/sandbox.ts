import { getPaymentRequest } from '#shared/data/payment-request.ts';
import { getRefund } from '#shared/data/refund.ts';
import { getTransfer } from '#shared/data/transfer.ts';
import type { Caller } from '#shared/domain/caller.ts';
import type { ProviderCode } from '#shared/domain/payment-methods.ts';
import { Conflict } from '#shared/errors/request.ts';
import { leaveAfterFailedAttempt } from '#shared/operations/end-payment.ts';
import { payLinkAsSandboxCustomer } from '#shared/operations/payment-links.ts';
import { asSeenAt } from '#shared/operations/payment-request-view.ts';
import { paymentRequestOf, startCollection } from '#shared/operations/payment-requests.ts';
import { refundOf } from '#shared/operations/refunds.ts';
import { transferOf } from '#shared/operations/transfers.ts';
import { actOnSandboxCollection, settleSandboxPayout } from '#shared/providers/sandbox.ts';

/**
 * Test helpers for automation: the payer approves or declines in their app. They act on the
 * sandbox provider's side, so the outcome reaches the service through the provider callback like
 * any other; a request nobody opened yet gets its collection started first, as the hosted page
 * would. The helper's payer then leaves: a failed collection ends the request in `error` with its
 * reason, where a payer on the hosted page could try again. Answers the request as it is afterwards.
 */
export async function actAsSandboxPayer(
  caller: Caller,
  id: string,
  action: 'approve' | 'decline',
  payerPhone: string | undefined,
  baseUrl: string,
) {
  let request = await paymentRequestOf(caller, id);
  if (request.status !== 'pending') throw new Conflict(`The payment request is already ${request.status}`);
  const phone = payerPhone ?? request.payerPhone;
  if (!request.providerReference) {
    // Opened without the number, as from the provider's own page: the number typed there decides.
    request = await startCollection(request, 'redirect', request.paymentMethod, undefined, baseUrl);
  }
  const acted = await actOnSandboxCollection(request.providerReference as string, action, phone);
  if (!acted) throw new Conflict('The payer already answered this payment request');
  await leaveAfterFailedAttempt(id);
  return asSeenAt((await getPaymentRequest(caller.businessId, id, true)) ?? request);
}

/**
 * Sandbox helper: a customer pays the caller's link, answers in their app at once (the sandbox
 * number chooses the outcome) and does not come back to the page: a failed payment ends there.
 * Answers the payment request as it is afterwards.
 */
export async function payLinkAndLeave(
  caller: Caller,
  linkId: string,
  payment: { paymentMethod: ProviderCode; payerPhone: string },
  baseUrl: string,
) {
  const paid = await payLinkAsSandboxCustomer(caller, linkId, payment, baseUrl);
  if (!paid.attemptError) return paid;
  await leaveAfterFailedAttempt(paid.id);
  return (await getPaymentRequest(caller.businessId, paid.id, true)) ?? paid;
}

/**
 * Test helpers for automation: the provider settles a pending payout (`complete` pays the
 * beneficiary, `fail` declines it), and its callback reaches the service like any other. Only a
 * payout the sandbox has not settled by itself can be settled so (a `…04` beneficiary's, which
 * gets no callback). Answers the transfer as it is afterwards.
 */
export async function settleAsSandboxProvider(caller: Caller, id: string, action: 'complete' | 'fail') {
  const transfer = await transferOf(caller, id);
  if (transfer.status !== 'pending') throw new Conflict(`The transfer is already ${transfer.status}`);
  const settled = await settleSandboxPayout(transfer.id, action === 'complete' ? 'success' : 'declined');
  if (!settled) throw new Conflict('The provider already settled this payout');
  return (await getTransfer(caller.businessId, id, true)) ?? transfer;
}

/**
 * The same for a refund the sandbox left pending (a `…04` payer's): the provider pays the payer
 * back, or fails to, and its callback reaches the service like any other. Answers the refund as
 * it is afterwards.
 */
export async function settleRefundAsSandboxProvider(caller: Caller, id: string, action: 'complete' | 'fail') {
  const refund = await refundOf(caller, id);
  if (refund.status !== 'pending') throw new Conflict(`The refund is already ${refund.status}`);
  const settled = await settleSandboxPayout(refund.id, action === 'complete' ? 'success' : 'declined');
  if (!settled) throw new Conflict('The provider already settled this refund');
  return (await getRefund(caller.businessId, id, true)) ?? refund;
}
