import { logger } from '#shared/logger.ts';
import { expireEscrow } from '#shared/operations/escrows.ts';

/** Invoked by the escrow's one-time schedule at its `holdUntil`, with `{"escrowId": ...}`. */
export const handler = async (event: { escrowId?: unknown }): Promise<{ result: string }> => {
  if (typeof event.escrowId !== 'string') throw new Error('an escrow expiry needs an escrowId');
  const result = await expireEscrow(event.escrowId);
  // Invoked before its time (a clock ahead of the escrow's): failing makes Scheduler retry, where
  // returning would delete the schedule and leave the hold to the slower safety sweep.
  if (result === 'not_due') throw new Error(`escrow ${event.escrowId} is not due yet`);
  logger.info('escrow hold ended', { escrowId: event.escrowId, result });
  return { result };
};
