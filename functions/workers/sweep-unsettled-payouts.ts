import { logger } from '#shared/logger.ts';
import { withMetrics } from '#shared/metrics.ts';
import { sweepUnsettledPayouts } from '#shared/settlement/payouts.ts';

/**
 * Every minute: payouts (transfers, refunds, orphans' refunds) whose provider's answer never came
 * are asked about through its status query, and settled when it has an answer; one the provider
 * never received is asked again.
 */
export const handler = withMetrics(async (): Promise<void> => {
  const report = await sweepUnsettledPayouts();
  if (report.found > 0) logger.info('unsettled payouts swept', { ...report });
  if (report.failed > 0) throw new Error(`${report.failed} unsettled payout(s) could not be swept`);
});
