import { logger } from '#shared/logger.ts';
import { sweepEscrows } from '#shared/operations/escrows.ts';

/** Every few minutes: held escrows past their time whose schedule was lost. */
export const handler = async (): Promise<void> => {
  const report = await sweepEscrows();
  if (report.found > 0) logger.info('due escrows swept', { ...report });
  if (report.failed > 0) throw new Error(`${report.failed} due escrow(s) could not be ended`);
};
