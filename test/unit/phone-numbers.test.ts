import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { internationalNumberPattern, normalisePhoneNumber } from '#shared/domain/phone-numbers.ts';

describe('destination numbers', () => {
  it('take the international form as it is', () => {
    expect(normalisePhoneNumber('+2250700000001')).toBe('+2250700000001');
    expect(normalisePhoneNumber('+33612345678')).toBe('+33612345678');
    expect(normalisePhoneNumber('+12345678')).toBe('+12345678');
  });

  it('rewrite the Ivorian local forms to +225', () => {
    expect(normalisePhoneNumber('0700000001')).toBe('+2250700000001');
    expect(normalisePhoneNumber('07 00 00 00 01')).toBe('+2250700000001');
    expect(normalisePhoneNumber('07.00.00.00.01')).toBe('+2250700000001');
    expect(normalisePhoneNumber('002250700000001')).toBe('+2250700000001');
    expect(normalisePhoneNumber('2250700000001')).toBe('+2250700000001');
    expect(normalisePhoneNumber('+225 07 00 00 00 01')).toBe('+2250700000001');
  });

  it('refuse what is not a number: too short, too long, letters, no country', () => {
    for (const bad of [
      '',
      '+',
      '+1234567',
      '+1234567890123456',
      '+22507000000a1',
      'abc',
      '700000001',
      '+0700000001',
    ])
      expect(normalisePhoneNumber(bad), bad).toBeUndefined();
  });

  it('answer either nothing or a number in international form (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 24 }), (raw) => {
        const normalised = normalisePhoneNumber(raw);
        if (normalised !== undefined) expect(normalised).toMatch(internationalNumberPattern);
      }),
    );
  });
});
