import { logger } from '#shared/logger.ts';
import { settleDueStores } from '#shared/settlement/automatic-settlement.ts';

/**
 * Every hour: the stores whose automatic settlement is due this hour (and the hour before, if no
 * run dealt with them) withdraw what they have above the amount they keep, once a day each.
 */
export const handler = async (): Promise<void> => {
  const report = await settleDueStores();
  if (report.found > 0) logger.info('automatic settlements run', { ...report });
  if (report.failed > 0) throw new Error(`${report.failed} automatic settlement(s) failed`);
};
