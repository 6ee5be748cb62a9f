import {
  findPayout,
  type Payout,
  type PayoutKind,
  payoutSettledWrite,
  unsettledPayouts,
} from '#shared/data/payout.ts';
import { transactWrite } from '#shared/data/transact.ts';
import { ProviderRefused } from '#shared/errors/providers.ts';
import { logger } from '#shared/logger.ts';
import type { PayoutOutcome } from '#shared/providers/port.ts';
import { orphanRefunds } from '#shared/settlement/orphan-refunds.ts';
import { askPayout, endOf, type PayoutSettler } from '#shared/settlement/payout-settler.ts';
import { refundPayouts } from '#shared/settlement/refund-payouts.ts';
import { transferPayouts } from '#shared/settlement/transfer-payouts.ts';

/**
 * The one way a payout settles. Every payout carries, from its creation, what it settles
 * (shared/data/payout.ts); a provider's callback and the sweep's status queries come here, and the
 * payout's kind picks the one settler that ends it, once.
 */
const settlers: { [Kind in PayoutKind]: PayoutSettler<unknown> } = {
  transfer: transferPayouts as PayoutSettler<unknown>,
  refund: refundPayouts as PayoutSettler<unknown>,
  orphanRefund: orphanRefunds as PayoutSettler<unknown>,
};

export type PayoutReportResult = 'completed' | 'already_completed' | 'unknown_transfer' | 'wrong_payout';

/** A provider's word on one of its payouts, from a verified callback. */
export interface PayoutReport {
  payoutId: string;
  providerReference: string;
  outcome: PayoutOutcome;
}

/**
 * Ends the payout as its provider says, once: a duplicate or late report finds it ended. A report
 * may outrun the recording of the provider's id for it; once recorded, the report must carry it.
 */
export async function settlePayout(report: PayoutReport): Promise<PayoutReportResult> {
  const payout = await findPayout(report.payoutId);
  const settler = payout && settlers[payout.settles];
  const record = payout && (await settler?.load(payout));
  if (!payout || !settler || record === undefined) return 'unknown_transfer';
  const known = settler.providerReference(record);
  if (known && known !== report.providerReference) {
    logger.warn('payout callback for another payout than ours', {
      payoutId: payout.id,
      settles: payout.settles,
      providerReference: report.providerReference,
    });
    return 'wrong_payout';
  }
  if (!settler.awaiting(record)) return 'already_completed';
  return (await settler.settle(record, endOf(report.outcome))) ? 'completed' : 'already_completed';
}

/** A payout unanswered this long is asked about. */
export const payoutStatusQueryAfterMs = 2 * 60_000;

export interface PayoutSweepReport {
  found: number;
  settled: number;
  stillPending: number;
  /** Asked of their provider again: it had never received them (or a worker stopped before asking). */
  askedAgain: number;
  failed: number;
}

/**
 * Asks the providers about payouts still unsettled after `payoutStatusQueryAfterMs` (their callback
 * lost, or never sent) and settles those with a final answer. One its provider never received (the
 * worker stopped between recording and asking, or the request was lost) is asked again, which every
 * provider takes once per payout id. Run on a schedule.
 */
export async function sweepUnsettledPayouts(now = new Date(), limit = 100): Promise<PayoutSweepReport> {
  const payouts = await unsettledPayouts(new Date(now.getTime() - payoutStatusQueryAfterMs), limit);
  const report: PayoutSweepReport = {
    found: payouts.length,
    settled: 0,
    stillPending: 0,
    askedAgain: 0,
    failed: 0,
  };
  for (const payout of payouts) {
    try {
      const outcome = await sweepOne(payout);
      report[outcome]++;
    } catch (error) {
      report.failed++;
      logger.error('unsettled payout not swept', {
        payoutId: payout.id,
        settles: payout.settles,
        error: error as Error,
      });
    }
  }
  return report;
}

async function sweepOne(payout: Payout): Promise<'settled' | 'stillPending' | 'askedAgain'> {
  const settler = settlers[payout.settles];
  const record = await settler.load(payout);
  if (record === undefined) throw new Error(`payout ${payout.id} settles a ${payout.settles} that is gone`);
  if (!settler.awaiting(record)) {
    // Its record ended without it (never, since both change in one transaction): it leaves the index.
    logger.error('payout unsettled, yet what it pays has ended', { payoutId: payout.id });
    await transactWrite([payoutSettledWrite(payout.id, new Date().toISOString())]);
    return 'settled';
  }
  const answer = await settler.status(record);
  if (answer === 'pending') return 'stillPending';
  if (answer !== 'not_found') {
    await settler.settle(record, endOf(answer));
    return 'settled';
  }
  try {
    const { end } = await askPayout(settler, record);
    return end ? 'settled' : 'askedAgain';
  } catch (error) {
    if (error instanceof ProviderRefused) return 'settled';
    throw error;
  }
}
