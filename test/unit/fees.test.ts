import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  defaultFeeSchedule,
  feeScheduleFromEnvironment,
  refundFeeScheduleFromEnvironment,
  splitFee,
} from '#shared/domain/fees.ts';

describe('fees', () => {
  it('round the percentage half up to a whole cent, then add the fixed part', () => {
    expect(splitFee(150_000, { percentBasisPoints: 150, fixedCents: 0 })).toEqual({
      fee: 2_250,
      net: 147_750,
    });
    // 1.5% of 133 cents is 1.995 cents: rounds to 2.
    expect(splitFee(133, { percentBasisPoints: 150, fixedCents: 0 })).toEqual({ fee: 2, net: 131 });
    // 1.5% of 100 cents is exactly 1.5: half rounds up.
    expect(splitFee(100, { percentBasisPoints: 150, fixedCents: 0 }).fee).toBe(2);
    // 1.5% of 99 is 1.485: rounds down.
    expect(splitFee(99, { percentBasisPoints: 150, fixedCents: 0 }).fee).toBe(1);
    expect(splitFee(10_000, { percentBasisPoints: 100, fixedCents: 25 })).toEqual({ fee: 125, net: 9_875 });
  });

  it('never take more than the amount', () => {
    expect(splitFee(100, { percentBasisPoints: 500, fixedCents: 1_000 })).toEqual({ fee: 100, net: 0 });
  });

  it('split any amount exactly into net + fee, both whole and non-negative (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1_000_000_000_000 }),
        fc.integer({ min: 0, max: 10_000 }),
        fc.integer({ min: 0, max: 100_000 }),
        (amount, percentBasisPoints, fixedCents) => {
          const { fee, net } = splitFee(amount, { percentBasisPoints, fixedCents });
          expect(fee + net).toBe(amount);
          expect(Number.isSafeInteger(fee) && Number.isSafeInteger(net)).toBe(true);
          expect(fee).toBeGreaterThanOrEqual(0);
          expect(net).toBeGreaterThanOrEqual(0);
          // The percentage part is within half a cent of the exact value.
          const exact = (amount * percentBasisPoints) / 10_000 + fixedCents;
          if (fee < amount) expect(Math.abs(fee - exact)).toBeLessThanOrEqual(0.5 + 1e-6 * exact);
        },
      ),
    );
  });

  it('stay exact where floating point would not (amount × rate above 2^53)', () => {
    expect(splitFee(999_999_999_999, { percentBasisPoints: 9_999, fixedCents: 0 }).fee).toBe(999_899_999_999);
  });

  it('come from FEE_SCHEDULE when set, and refuse a schedule that makes no sense', () => {
    expect(feeScheduleFromEnvironment(undefined)).toEqual(defaultFeeSchedule);
    expect(feeScheduleFromEnvironment('{"wave": {"percentBasisPoints": 80, "fixedCents": 5}}').wave).toEqual({
      percentBasisPoints: 80,
      fixedCents: 5,
    });
    expect(() =>
      feeScheduleFromEnvironment('{"paypal": {"percentBasisPoints": 1, "fixedCents": 0}}'),
    ).toThrow(/unknown/);
    expect(() =>
      feeScheduleFromEnvironment('{"wave": {"percentBasisPoints": 1.5, "fixedCents": 0}}'),
    ).toThrow();
    expect(() =>
      feeScheduleFromEnvironment('{"wave": {"percentBasisPoints": 100, "fixedCents": -1}}'),
    ).toThrow();
  });

  it('make a refund cost nothing beside what the payer gets back, unless REFUND_FEE_SCHEDULE prices it', () => {
    const schedule = refundFeeScheduleFromEnvironment(undefined);
    expect(
      Object.values(schedule).every((rule) => rule.percentBasisPoints === 0 && rule.fixedCents === 0),
    ).toBe(true);
    const priced = refundFeeScheduleFromEnvironment(
      '{"orange": {"percentBasisPoints": 50, "fixedCents": 100}}',
    );
    expect(splitFee(100_000, priced.orange).fee).toBe(600);
    expect(priced.wave).toEqual(schedule.wave);
    expect(() =>
      refundFeeScheduleFromEnvironment('{"bank": {"percentBasisPoints": 1, "fixedCents": 0}}'),
    ).toThrow(/unknown/);
  });
});
