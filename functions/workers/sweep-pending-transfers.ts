import { logger } from '#shared/logger.ts';
import { withMetrics } from '#shared/metrics.ts';
import { sweepPendingTransfers } from '#shared/operations/complete-transfer.ts';

/** Every minute: payouts whose callback never came are asked about through the provider's status query. */
export const handler = withMetrics(async (): Promise<void> => {
  const report = await sweepPendingTransfers();
  if (report.found > 0) logger.info('pending transfers swept', { ...report });
  if (report.failed > 0) throw new Error(`${report.failed} pending transfer(s) could not be settled`);
});
