import { findPayout } from '#shared/data/payout.ts';
import { getTransfer, type Transfer } from '#shared/data/transfer.ts';
import type { PayoutOutcome } from '#shared/providers/port.ts';
import { type PayoutReportResult, settlePayout } from '#shared/settlement/payouts.ts';

/** A provider's verified callback about one of its payouts (a transfer's, a refund's, an orphan's). */
export async function payoutCallback(
  payout: { id: string; providerReference?: string | undefined },
  outcome: PayoutOutcome,
): Promise<{ result: PayoutReportResult }> {
  const result = await settlePayout({
    payoutId: payout.id,
    providerReference: payout.providerReference as string,
    outcome,
  });
  return { result };
}

/** The transfer a payout id pays (an escrow's refund, say), as a callback finds it. */
export async function transferOfPayout(id: string): Promise<Transfer | undefined> {
  const payout = await findPayout(id);
  return payout ? getTransfer(payout.businessId, id, true) : undefined;
}
