import { logger } from '#shared/logger.ts';
import { withMetrics } from '#shared/metrics.ts';
import { sweepPendingRefunds } from '#shared/operations/complete-refund.ts';
import { sweepPendingTransfers } from '#shared/operations/complete-transfer.ts';
import { sweepOrphanRefunds } from '#shared/operations/orphan-collections.ts';

/**
 * Every minute: payouts whose callback never came are asked about through the provider's status
 * query; so are orphan collections' refunds, which are payouts too (and those never asked, asked),
 * and refunds of paid payments, by their own refund's status or their payout's.
 */
export const handler = withMetrics(async (): Promise<void> => {
  const [report, refunds, paymentRefunds] = await Promise.all([
    sweepPendingTransfers(),
    sweepOrphanRefunds(),
    sweepPendingRefunds(),
  ]);
  if (report.found > 0) logger.info('pending transfers swept', { ...report });
  if (refunds.found > 0) logger.info('orphan refunds swept', { ...refunds });
  if (paymentRefunds.found > 0) logger.info('pending refunds swept', { ...paymentRefunds });
  const failed = report.failed + paymentRefunds.failed;
  if (failed > 0) throw new Error(`${failed} pending transfer(s) or refund(s) could not be settled`);
});
