import { logger } from '#shared/logger.ts';
import { withMetrics } from '#shared/metrics.ts';
import { sweepDevicePushes } from '#shared/operations/device-push.ts';

/** Every minute: the device pushes (QR displays, announcements) that failed when first sent. */
export const handler = withMetrics(async (): Promise<void> => {
  const report = await sweepDevicePushes();
  if (report.found > 0) logger.info('device pushes swept', { ...report });
  // Failing the run raises the function's error alarm: devices are then unreachable for a while.
  if (report.failed > 0) throw new Error(`${report.failed} device push(es) failed again`);
});
