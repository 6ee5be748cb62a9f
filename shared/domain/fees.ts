import type { Cents } from '#shared/domain/money.ts';
import { type ProviderCode, providerCodes } from '#shared/domain/payment-methods.ts';

/**
 * What the service keeps from a collection: a percentage (in basis points, 1/100 of a percent)
 * plus a fixed part, per payment method.
 */
export interface FeeRule {
  percentBasisPoints: number;
  fixedCents: Cents;
}

export type FeeSchedule = Record<ProviderCode, FeeRule>;

/** Defaults; FEE_SCHEDULE (JSON, same shape, any subset of methods) overrides them per stage. */
export const defaultFeeSchedule: FeeSchedule = {
  orange: { percentBasisPoints: 150, fixedCents: 0 },
  wave: { percentBasisPoints: 100, fixedCents: 0 },
  mtn: { percentBasisPoints: 150, fixedCents: 0 },
  moov: { percentBasisPoints: 150, fixedCents: 0 },
  djamo: { percentBasisPoints: 120, fixedCents: 0 },
};

export function feeScheduleFromEnvironment(value = process.env.FEE_SCHEDULE): FeeSchedule {
  return withOverrides(defaultFeeSchedule, value, 'FEE_SCHEDULE');
}

/**
 * What the service keeps from a transfer, per way of paying out: `svc` is a move between two
 * stores of one business, free unless a stage says otherwise.
 */
export type PayoutFeeSchedule = Record<ProviderCode | 'bank' | 'svc', FeeRule>;

export const defaultPayoutFeeSchedule: PayoutFeeSchedule = {
  orange: { percentBasisPoints: 100, fixedCents: 0 },
  wave: { percentBasisPoints: 100, fixedCents: 0 },
  mtn: { percentBasisPoints: 100, fixedCents: 0 },
  moov: { percentBasisPoints: 100, fixedCents: 0 },
  djamo: { percentBasisPoints: 100, fixedCents: 0 },
  bank: { percentBasisPoints: 100, fixedCents: 0 },
  svc: { percentBasisPoints: 0, fixedCents: 0 },
};

/** PAYOUT_FEE_SCHEDULE (JSON, same shape, any subset of methods) overrides the payout defaults. */
export function payoutFeeScheduleFromEnvironment(value = process.env.PAYOUT_FEE_SCHEDULE): PayoutFeeSchedule {
  return withOverrides(defaultPayoutFeeSchedule, value, 'PAYOUT_FEE_SCHEDULE');
}

/**
 * What a refund of a completed payment costs, per provider that collected it. The policy
 * (docs/integrators/refunds.md): the payment's own fee is not given back, since the collection took
 * place and the provider charged for it, and giving back money costs nothing more by default, so
 * a refund takes from the store exactly what the payer gets. A stage may price refunds with
 * REFUND_FEE_SCHEDULE (JSON, same shape, any subset of methods); the fee is then reserved and
 * posted with the refund, as a transfer's is.
 */
export type RefundFeeSchedule = Record<ProviderCode, FeeRule>;

export const defaultRefundFeeSchedule = Object.fromEntries(
  providerCodes.map((code) => [code, { percentBasisPoints: 0, fixedCents: 0 }]),
) as RefundFeeSchedule;

export function refundFeeScheduleFromEnvironment(value = process.env.REFUND_FEE_SCHEDULE): RefundFeeSchedule {
  return withOverrides(defaultRefundFeeSchedule, value, 'REFUND_FEE_SCHEDULE');
}

function withOverrides<S extends Record<string, FeeRule>>(
  defaults: S,
  value: string | undefined,
  name: string,
): S {
  if (!value) return defaults;
  const overrides = JSON.parse(value) as Partial<S>;
  const schedule = { ...defaults };
  for (const [method, rule] of Object.entries(overrides) as [keyof S & string, FeeRule][]) {
    if (!(method in schedule)) throw new Error(`${name} names an unknown payment method: ${method}`);
    if (
      !Number.isInteger(rule.percentBasisPoints) ||
      rule.percentBasisPoints < 0 ||
      rule.percentBasisPoints > 10_000
    ) {
      throw new Error(`${name}.${method}.percentBasisPoints must be an integer from 0 to 10000`);
    }
    if (!Number.isInteger(rule.fixedCents) || rule.fixedCents < 0) {
      throw new Error(`${name}.${method}.fixedCents must be a non-negative integer`);
    }
    schedule[method] = rule as S[keyof S & string];
  }
  return schedule;
}

export interface FeeSplit {
  fee: Cents;
  net: Cents;
}

/** A franc CFA in cents: fees are whole francs, the franc having no minor unit in use. */
const centsPerFranc = 100n;

/**
 * The fee on `amount`: the percentage part plus the fixed part, rounded half up to a whole franc
 * (100 cents), never more than the amount itself. The merchant gets the rest, so amount = net +
 * fee exactly. Whole francs because nobody pays or is paid centimes of a franc CFA: a fee of
 * "22,50 F CFA" could not be read on a statement nor settled by an operator. Half up, the rule of
 * commercial rounding, keeps the fee within half a franc of the schedule's rate either way.
 * Computed in BigInt: amount × basis points overflows 2^53 from about 9 × 10^11 XOF.
 */
export function splitFee(amount: Cents, rule: FeeRule): FeeSplit {
  if (!Number.isSafeInteger(amount) || amount < 0)
    throw new RangeError(`amount must be whole cents: ${amount}`);
  // In ten-thousandths of a cent, where the percentage part is exact.
  const exact = BigInt(amount) * BigInt(rule.percentBasisPoints) + BigInt(rule.fixedCents) * 10_000n;
  const franc = centsPerFranc * 10_000n;
  const francs = (exact + franc / 2n) / franc;
  const fee = Math.min(amount, Number(francs * centsPerFranc));
  return { fee, net: amount - fee };
}
