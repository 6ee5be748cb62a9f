import { logger } from '#shared/logger.ts';
import { withMetrics } from '#shared/metrics.ts';
import { presenceEventOf, recordDevicePresence } from '#shared/operations/device-presence.ts';

/** Invoked by the IoT rules on device heartbeats and connection lifecycle events. */
export const handler = withMetrics(async (payload: Record<string, unknown>): Promise<void> => {
  const event = presenceEventOf(payload);
  if (!event) {
    logger.warn('not a presence event', { payload });
    return;
  }
  await recordDevicePresence(event);
});
