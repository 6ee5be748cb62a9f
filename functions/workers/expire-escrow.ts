import { logger } from '#shared/logger.ts';
import { expireEscrow } from '#shared/operations/escrows.ts';

/** Invoked by the escrow's one-time schedule at its `holdUntil`, with `{"escrowId": ...}`. */
export const handler = async (event: { escrowId?: unknown }): Promise<{ result: string }> => {
  if (typeof event.escrowId !== 'string') throw new Error('an escrow expiry needs an escrowId');
  const result = await expireEscrow(event.escrowId);
  logger.info('escrow hold ended', { escrowId: event.escrowId, result });
  return { result };
};
