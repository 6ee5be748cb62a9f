import { logger } from '#shared/logger.ts';
import { withMetrics } from '#shared/metrics.ts';
import { sweepOutbox } from '#shared/operations/webhook-dispatch.ts';

/** Every minute: the outbox events that did not reach the webhook queue right after their change. */
export const handler = withMetrics(async (): Promise<void> => {
  const report = await sweepOutbox();
  if (report.found > 0) logger.info('outbox swept', { ...report });
  // Events that cannot be dispatched stay pending and are tried again next run; failing the run
  // raises the function's error alarm, since webhooks are then late.
  if (report.failed > 0) throw new Error(`${report.failed} outbox event(s) could not be dispatched`);
});
