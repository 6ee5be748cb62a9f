import { describe, expect, it } from 'vitest';
import { readFrancs } from '#shared/domain/franc-amounts.ts';

describe('an amount typed in francs', () => {
  it.each([
    ['1500', 150_000],
    ['1 500', 150_000],
    [' 1 500 F ', 150_000],
    ['1\u202f500\u00a0F CFA', 150_000],
    ['0', 0],
  ])('reads %j as %i cents', (typed, cents) => {
    expect(readFrancs(typed)).toBe(cents);
  });

  it.each(['', 'abc', '1,5', '1.500', '-100', '+100', '15e2', '12345678901234'])('refuses %j', (typed) => {
    expect(readFrancs(typed)).toBeUndefined();
  });
});
