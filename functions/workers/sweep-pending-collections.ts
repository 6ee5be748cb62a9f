import { logger } from '#shared/logger.ts';
import { sweepPendingCollections } from '#shared/settlement/collection-sweep.ts';

/** Every minute: live providers are asked about collections whose callback never came (or was not proven). */
export const handler = async (): Promise<void> => {
  const report = await sweepPendingCollections();
  if (report.found > 0) logger.info('pending collections swept', { ...report });
  if (report.failed > 0) throw new Error(`${report.failed} pending collection(s) could not be polled`);
};
