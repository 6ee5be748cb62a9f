import { describe, expect, it } from 'vitest';
import { typedFrancsToCents } from '#shared/domain/typed-amount.ts';

describe('an amount of francs as a person types it', () => {
  it.each([
    ['1500', 150_000],
    ['1 500', 150_000],
    ['1\u00a0500', 150_000],
    ['1\u202f500 F CFA', 150_000],
    [' 25 000 FCFA ', 2_500_000],
    ['100f', 10_000],
    ['0', 0],
  ])('reads %j as %i cents', (typed, cents) => {
    expect(typedFrancsToCents(typed)).toBe(cents);
  });

  it.each(['', 'abc', '15,5', '15.5', '-100', '1e5', '1 500 €', '12345678901234'])(
    'refuses %j rather than guess',
    (typed) => {
      expect(typedFrancsToCents(typed)).toBeUndefined();
    },
  );
});
