import type { Payout, PayoutKind } from '#shared/data/payout.ts';
import { ProviderRefused } from '#shared/errors/providers.ts';
import type { PayoutOutcome, PayoutStarted, PayoutStatus } from '#shared/providers/port.ts';

/** How a payout ends: paid, or not and why. */
export type PayoutEnd = { status: 'success'; errorReason: null } | { status: 'error'; errorReason: string };

export const endOf = (outcome: PayoutOutcome): PayoutEnd =>
  outcome === 'success'
    ? { status: 'success', errorReason: null }
    : { status: 'error', errorReason: outcome };

/** A payout the provider refused at once: nothing moved there, its money and reference go back. */
export const refusedEnd: PayoutEnd = { status: 'error', errorReason: 'third_party_payment_provider_error' };

/**
 * One kind of payout (a transfer, a refund, an orphan's refund): what its record is, how its
 * provider is asked and queried, and what its end writes. Each kind's module implements it; the
 * entry point (shared/settlement/payouts.ts) picks the kind from the payout's `settles`.
 */
export interface PayoutSettler<T> {
  readonly kind: PayoutKind;
  /** The record the payout settles, read afresh; undefined when there is none. */
  load(payout: Payout): Promise<T | undefined>;
  /** Whether it still waits for its provider's answer. */
  awaiting(record: T): boolean;
  /** The provider's id of it, once recorded. */
  providerReference(record: T): string | undefined;
  /**
   * Ends it, once, in one transaction with its money's movement and the payout's leaving the
   * sweep's index; false when it had ended already. `releaseReference` frees the merchant's
   * reference of a payout refused at once, so it can be used again.
   */
  settle(record: T, end: PayoutEnd, options?: { releaseReference?: boolean }): Promise<boolean>;
  /** Why it cannot be asked at all (no number to pay, say), or undefined. */
  unaskable?(record: T): PayoutEnd | undefined;
  /** Asks its provider to pay (again: the provider keeps one payout per id); ProviderRefused when refused. */
  ask(record: T): Promise<PayoutStarted>;
  /** Keeps the provider's id of it, which its callbacks must then carry. */
  recordAsked(record: T, providerReference: string): Promise<void>;
  /** The provider's status query. */
  status(record: T): Promise<PayoutStatus>;
}

/**
 * Asks the provider to pay a payout recorded pending. An answer already final settles it now, as a
 * callback would; a refusal settles it in error (its money and reference given back) and is thrown
 * for the caller to answer; anything else leaves it to its callback or the sweep. Answers the
 * provider's id of it, and how it ended when it did.
 */
export async function askPayout<T>(
  settler: PayoutSettler<T>,
  record: T,
): Promise<{ providerReference?: string; end?: PayoutEnd }> {
  const unaskable = settler.unaskable?.(record);
  if (unaskable) {
    await settler.settle(record, unaskable);
    return { end: unaskable };
  }
  let started: PayoutStarted;
  try {
    started = await settler.ask(record);
  } catch (error) {
    if (error instanceof ProviderRefused)
      await settler.settle(record, refusedEnd, { releaseReference: true });
    throw error;
  }
  const { providerReference } = started;
  await settler.recordAsked(record, providerReference);
  if (!started.outcome) return { providerReference };
  const end = endOf(started.outcome);
  await settler.settle(record, end);
  return { providerReference, end };
}
