import type { PaymentRequest } from '#shared/data/payment-request.ts';
import { findRefund, refundableOf, refundIdsOfPayment } from '#shared/data/refund.ts';
import { accounts } from '#shared/domain/ledger.ts';
import { payoutTruth } from '#test/simulation/pawapay.ts';

export interface RefundModel {
  /** What paid refunds took out of the store's operating wallet, and what pending ones hold there. */
  walletOut: number;
  blocked: number;
  refunds: number;
  refundsPaid: number;
  mismatches: string[];
}

/**
 * What the refunds did by the providers' own record: a refund the provider paid took its amount
 * and fee out of the store, owed to (or by) its provider and the fee to the service; a pending one
 * holds them; any other took nothing. Each refund's status must agree, and each payment's
 * `refundedCents` must be what its paid refunds gave back.
 */
export async function refundModel(
  requests: Iterable<PaymentRequest | undefined>,
  add: (account: string, amount: number) => void,
): Promise<RefundModel> {
  const model: RefundModel = { walletOut: 0, blocked: 0, refunds: 0, refundsPaid: 0, mismatches: [] };
  for (const request of requests) {
    if (!request) continue;
    let paidBack = 0;
    for (const id of await refundIdsOfPayment(request.id)) {
      const refund = await findRefund(id, true);
      if (!refund) {
        model.mismatches.push(`refund ${id} of ${request.id}: listed by its payment, yet missing`);
        continue;
      }
      model.refunds++;
      const payout = await payoutTruth(id);
      const cost = refund.amountCents + refund.feeCents;
      if (payout?.state === 'success') {
        model.walletOut += cost;
        model.refundsPaid++;
        paidBack += refund.amountCents;
        add(
          refund.route === 'refund'
            ? accounts.providerClearing(refund.paymentMethod)
            : accounts.payoutClearing(refund.paymentMethod),
          refund.amountCents,
        );
        if (refund.feeCents > 0) add(accounts.platformFees, refund.feeCents);
        if (refund.status !== 'success')
          model.mismatches.push(`refund ${id}: paid back, yet ${refund.status}`);
      } else if (payout?.state === 'pending' || (!payout && refund.status === 'pending')) {
        model.blocked += cost;
        if (refund.status !== 'pending')
          model.mismatches.push(`refund ${id}: undecided, yet ${refund.status}`);
      } else if (refund.status === 'success')
        model.mismatches.push(`refund ${id}: never paid back, yet success`);
    }
    if ((request.refundedCents ?? 0) !== paidBack)
      model.mismatches.push(
        `payment ${request.id}: refunded ${request.refundedCents ?? 0}, its refunds paid ${paidBack}`,
      );
    const remaining = await refundableOf(request);
    if (remaining < 0)
      model.mismatches.push(`payment ${request.id}: refunds took ${request.amountCents - remaining}`);
  }
  return model;
}
