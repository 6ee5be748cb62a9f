import type { Cents } from '#shared/domain/money.ts';

/**
 * Escrow: a payment held for a marketplace until the platform releases it to the store (or the
 * hold expires). `pending` from the payment request's creation; the payment's outcome makes it
 * `held` or `cancelled`; a held escrow ends `released` (operating wallet) or, through a payout to
 * the payer, `refunding` then `refunded` (or back to `held` when the payout fails). Each transition
 * is conditional on the state it leaves, so it happens once whoever asks first.
 */
export const escrowStatuses = ['pending', 'held', 'cancelled', 'released', 'refunding', 'refunded'] as const;
export type EscrowStatus = (typeof escrowStatuses)[number];

export const expiryActions = ['release', 'refund'] as const;
export type ExpiryAction = (typeof expiryActions)[number];

/**
 * What a payment request or a link asks for: a date, or a number of days from the request (one of
 * the two, which the schema checks).
 */
export interface EscrowTerms {
  holdUntil?: string | undefined;
  holdDays?: number | undefined;
  onExpiry: ExpiryAction;
}

export const maxHoldDays = 90;
const dayMs = 86_400_000;

/**
 * The shortest hold a stage allows, in seconds: an hour unless the stage says otherwise (the local
 * host's tests hold for seconds).
 */
export function minHoldSeconds(environment: NodeJS.ProcessEnv = process.env): number {
  const value = Number(environment.ESCROW_MIN_HOLD_SECONDS);
  return Number.isSafeInteger(value) && value > 0 ? value : 3600;
}

/**
 * When a hold asked for now ends, or why it cannot: `holdDays` counts from now; a `holdUntil` must
 * lie between the stage's minimum and 90 days ahead.
 */
export function holdUntilOf(
  terms: EscrowTerms,
  now: Date,
  minSeconds: number,
): { holdUntil: string } | { refused: string } {
  if (terms.holdDays !== undefined) {
    return { holdUntil: new Date(now.getTime() + terms.holdDays * dayMs).toISOString() };
  }
  const until = Date.parse(terms.holdUntil ?? '');
  if (Number.isNaN(until)) return { refused: 'The hold needs holdUntil or holdDays.' };
  if (until < now.getTime() + minSeconds * 1000) {
    return { refused: `The hold must end at least ${minSeconds} seconds from now.` };
  }
  if (until > now.getTime() + maxHoldDays * dayMs) {
    return { refused: `The hold must end within ${maxHoldDays} days.` };
  }
  return { holdUntil: new Date(until).toISOString() };
}

/** What the escrow wallet holds for a payment: what the store would have received. */
export const heldAmount = (escrow: { amount: Cents; fees: Cents }): Cents => escrow.amount - escrow.fees;
