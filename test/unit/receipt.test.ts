import { describe, expect, it } from 'vitest';
import { countryTimeZones, storeTimeZone } from '#shared/domain/country-time-zones.ts';
import { checkPayerForm } from '#shared/operations/hosted-payment.ts';
import { dayAndTime, localPhone, maskPhone, shortReference } from '#shared/pages/format.ts';

describe('what a payer reads on the hosted pages', () => {
  it('masks the payer number but for the operator prefix and the last two digits, unbreakable', () => {
    expect(maskPhone('+2250707123456')).toBe('+225\u00a007\u00a0••\u00a0••\u00a0••\u00a056');
    expect(maskPhone('not a number')).toBe('not a number');
  });

  it('shows a number in the field after the fixed +225 as it is written locally', () => {
    expect(localPhone('+2250707123456')).toBe('07 07 12 34 56');
    expect(localPhone('12345')).toBe('12345');
  });

  it('gives a transaction a short reference, the start of its id, that can be read out', () => {
    expect(shortReference('bfe37c2f-5d1e-49f0-a808-880f6e193b7b')).toBe('BFE3-7C2F');
  });

  it("dates a transaction in Côte d'Ivoire's time by default, which is UTC, and says so", () => {
    expect(dayAndTime('2026-11-23 02:14:05')).toEqual(['23/11/2026', '02:14', 'UTC+0']);
    expect(dayAndTime('2026-11-23 02:14:05', 'Africa/Abidjan', 'en')).toEqual([
      '23/11/2026',
      '02:14',
      'GMT+0',
    ]);
  });

  it("dates a transaction in the store's zone: an hour later in Benin and Niger, the next day near midnight", () => {
    expect(dayAndTime('2026-11-23 23:14:05', countryTimeZones.BJ)).toEqual(['24/11/2026', '00:14', 'UTC+1']);
    expect(dayAndTime('2026-11-23 14:05:00', countryTimeZones.NE, 'en')).toEqual([
      '23/11/2026',
      '15:05',
      'GMT+1',
    ]);
    expect(dayAndTime('2026-11-23 14:05:00', countryTimeZones.SN)).toEqual(['23/11/2026', '14:05', 'UTC+0']);
  });

  it("finds a store's time zone from its country, Côte d'Ivoire's for a store without one", () => {
    expect(storeTimeZone({ name: 'Boutique' })).toBe('Africa/Abidjan');
    expect(storeTimeZone({ country: 'BJ' })).toBe('Africa/Porto-Novo');
    expect(storeTimeZone({ country: 'GW' })).toBe('Africa/Bissau');
    // Every zone the table names is one the runtime knows.
    for (const zone of Object.values(countryTimeZones))
      expect(() => new Intl.DateTimeFormat('fr', { timeZone: zone })).not.toThrow();
  });

  it('tells an empty phone apart from a malformed one', () => {
    expect(checkPayerForm({ paymentMethod: 'wave', payerPhone: ' ' }, 'CI')).toMatchObject({
      errors: { payerPhone: 'required' },
    });
    expect(checkPayerForm({ paymentMethod: 'wave', payerPhone: '12345' }, 'CI')).toMatchObject({
      errors: { payerPhone: 'format' },
    });
    expect(checkPayerForm({ paymentMethod: 'wave', payerPhone: '07 07 12 34 56' }, 'CI')).toEqual({
      method: 'wave',
      phone: '+2250707123456',
    });
  });
});
