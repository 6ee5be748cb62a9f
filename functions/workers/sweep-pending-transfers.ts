import { logger } from '#shared/logger.ts';
import { withMetrics } from '#shared/metrics.ts';
import { sweepPendingTransfers } from '#shared/operations/complete-transfer.ts';
import { sweepOrphanRefunds } from '#shared/operations/orphan-collections.ts';

/**
 * Every minute: payouts whose callback never came are asked about through the provider's status
 * query; so are orphan collections' refunds, which are payouts too (and those never asked, asked).
 */
export const handler = withMetrics(async (): Promise<void> => {
  const [report, refunds] = await Promise.all([sweepPendingTransfers(), sweepOrphanRefunds()]);
  if (report.found > 0) logger.info('pending transfers swept', { ...report });
  if (refunds.found > 0) logger.info('orphan refunds swept', { ...refunds });
  if (report.failed > 0) throw new Error(`${report.failed} pending transfer(s) could not be settled`);
});
