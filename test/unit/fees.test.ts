import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  defaultFeeSchedule,
  feeScheduleFromEnvironment,
  refundFeeScheduleFromEnvironment,
  splitFee,
} from '#shared/domain/fees.ts';

describe('fees', () => {
  it('round the percentage and the fixed part half up to a whole franc (100 cents)', () => {
    // 1.5% of 1 500 F is 22.50 F: half a franc rounds up, to 23 F.
    expect(splitFee(150_000, { percentBasisPoints: 150, fixedCents: 0 })).toEqual({
      fee: 2_300,
      net: 147_700,
    });
    // 1% of 1 500 F is exactly 15 F.
    expect(splitFee(150_000, { percentBasisPoints: 100, fixedCents: 0 })).toEqual({
      fee: 1_500,
      net: 148_500,
    });
    // 1.5% of 2 499 F is 37.485 F: down to 37 F, never "37,50 F CFA".
    expect(splitFee(249_900, { percentBasisPoints: 150, fixedCents: 0 }).fee).toBe(3_700);
    // 1.2% of 1 250 F is 15 F; with 0.25 F fixed, 15.25 F: down to 15 F.
    expect(splitFee(125_000, { percentBasisPoints: 120, fixedCents: 25 }).fee).toBe(1_500);
    // 1% of 49 F is 0.49 F: no fee; of 50 F, half a franc: 1 F.
    expect(splitFee(4_900, { percentBasisPoints: 100, fixedCents: 0 }).fee).toBe(0);
    expect(splitFee(5_000, { percentBasisPoints: 100, fixedCents: 0 }).fee).toBe(100);
    expect(splitFee(10_000, { percentBasisPoints: 100, fixedCents: 2_500 })).toEqual({
      fee: 2_600,
      net: 7_400,
    });
  });

  it('never take more than the amount', () => {
    expect(splitFee(100, { percentBasisPoints: 500, fixedCents: 1_000 })).toEqual({ fee: 100, net: 0 });
  });

  it('split any amount exactly into net + fee, the fee in whole francs within half a franc of the rate (property)', () => {
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
          if (fee < amount) {
            expect(fee % 100).toBe(0);
            const exact = (amount * percentBasisPoints) / 10_000 + fixedCents;
            expect(Math.abs(fee - exact)).toBeLessThanOrEqual(50 + 1e-6 * exact);
          }
        },
      ),
    );
  });

  it('stay exact where floating point would not (amount × rate above 2^53)', () => {
    // 99.99% of 9 999 999 999.99 F is 9 998 999 999.990001 F: 9 999 000 000 F.
    expect(splitFee(999_999_999_999, { percentBasisPoints: 9_999, fixedCents: 0 }).fee).toBe(999_900_000_000);
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
