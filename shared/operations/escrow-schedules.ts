import { cancelEscrowExpiry, scheduleEscrowExpiry } from '#shared/aws/scheduler.ts';
import type { PaymentRequestEscrow } from '#shared/data/payment-request.ts';
import { logger } from '#shared/logger.ts';

/**
 * The one-time schedule that ends a held escrow's hold. Its failure does not undo the payment,
 * which is held already: the safety sweep (`sweepEscrows`) ends holds that have no schedule.
 */
export async function scheduleHoldEnd(escrow: PaymentRequestEscrow): Promise<void> {
  try {
    await scheduleEscrowExpiry(escrow.id, escrow.holdUntil);
  } catch (error) {
    logger.error('escrow expiry not scheduled; the sweep will end the hold', {
      escrowId: escrow.id,
      error: error as Error,
    });
  }
}

/**
 * An escrow released before its time no longer needs its schedule. Left behind, it would still be
 * harmless (the expiry finds the escrow not held), so a failure here is only logged.
 */
export async function dropHoldEnd(escrowId: string): Promise<void> {
  try {
    await cancelEscrowExpiry(escrowId);
  } catch (error) {
    logger.warn('escrow expiry schedule not deleted; it will find the escrow ended', {
      escrowId,
      error: error as Error,
    });
  }
}
