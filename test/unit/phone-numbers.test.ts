import fc from 'fast-check';
import mobileMetadata from 'libphonenumber-js/mobile/metadata';
import { describe, expect, it } from 'vitest';
import { uemoaPhoneMetadataFrom } from '#infra/phone-metadata.ts';
import { providerServes, providersIn } from '#shared/domain/operator-countries.ts';
import { providerCodes } from '#shared/domain/payment-methods.ts';
import {
  formatPhone,
  internationalNumberPattern,
  localPhone,
  maskPhone,
  normalisePhoneNumber,
  readZoneNumber,
} from '#shared/domain/phone-numbers.ts';
import { type UemoaCountry, uemoaCountries } from '#shared/domain/uemoa-countries.ts';
import committedMetadata from '#shared/domain/uemoa-phone-metadata.json' with { type: 'json' };
import { sandboxBehaviour, sandboxPhonesOf } from '#shared/providers/sandbox.ts';

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

/** One valid mobile number of each country, as libphonenumber-js's mobile metadata has them. */
const zoneNumbers = {
  SN: '+221771234567',
  ML: '+22370123456',
  BJ: '+2290190123456',
  TG: '+22890123456',
  NE: '+22790123456',
  BF: '+22670123456',
  GW: '+245955123456',
  CI: '+2250700000001',
} as const satisfies Record<UemoaCountry, string>;

describe('numbers of the zone', () => {
  it('read a mobile number of each of the eight countries, with its country', () => {
    for (const [country, number] of Object.entries(zoneNumbers)) {
      expect(readZoneNumber(number), number).toEqual({ e164: number, country });
      expect(normalisePhoneNumber(number), number).toBe(number);
    }
    expect(Object.keys(zoneNumbers).sort()).toEqual([...uemoaCountries].sort());
  });

  it('read a national form in the country given, Côte d’Ivoire by default', () => {
    expect(readZoneNumber('07 00 00 00 01')).toEqual({ e164: '+2250700000001', country: 'CI' });
    expect(readZoneNumber('77 123 45 67', 'SN')).toEqual({ e164: '+221771234567', country: 'SN' });
    expect(readZoneNumber('01 90 12 34 56', 'BJ')).toEqual({ e164: '+2290190123456', country: 'BJ' });
    expect(readZoneNumber('70.12.34.56', 'ML')).toEqual({ e164: '+22370123456', country: 'ML' });
    // An Ivorian national number is not a Senegalese one.
    expect(readZoneNumber('07 00 00 00 01', 'SN')).toBeUndefined();
    // An international form is read as it says, whatever the country given.
    expect(readZoneNumber('+221 77 123 45 67', 'CI')?.country).toBe('SN');
    expect(readZoneNumber('00221771234567', 'CI')?.country).toBe('SN');
    expect(readZoneNumber('221771234567', 'CI')?.country).toBe('SN');
    // With no country to read it in (null), a national form is not read at all.
    expect(readZoneNumber('0700000001', null)).toBeUndefined();
    expect(readZoneNumber('2250700000001', null)?.e164).toBe('+2250700000001');
  });

  it('refuse a number of the zone that is not a valid mobile one: fixed lines, wrong lengths', () => {
    for (const bad of ['+2252720000000', '+22177123456', '+2217712345678', '+22990123456', '+2280123456'])
      expect(readZoneNumber(bad), bad).toBeUndefined();
    // The same numbers are refused where other countries' are taken: the zone's rules apply.
    expect(normalisePhoneNumber('+2252720000000')).toBeUndefined();
    expect(normalisePhoneNumber('+22177123456')).toBeUndefined();
  });

  it('show every country’s numbers in its groups, whole and masked', () => {
    expect(formatPhone('+2250700000001')).toBe('+225\u00a007\u00a000\u00a000\u00a000\u00a001');
    expect(formatPhone('+221771234567')).toBe('+221\u00a077\u00a0123\u00a045\u00a067');
    expect(formatPhone('+2290190123456')).toBe('+229\u00a001\u00a090\u00a012\u00a034\u00a056');
    expect(formatPhone('+245955123456')).toBe('+245\u00a0955\u00a0123\u00a0456');
    expect(localPhone('+22370123456')).toBe('70 12 34 56');
    expect(maskPhone('+221771234567')).toBe('+221\u00a077\u00a0•••\u00a0••\u00a067');
    expect(maskPhone('+22890123456')).toBe('+228\u00a090\u00a0••\u00a0••\u00a056');
    expect(maskPhone('+245955123456')).toBe('+245\u00a0955\u00a0•••\u00a0•56');
    // Another country's number is shown as stored.
    expect(formatPhone('+33612345678')).toBe('+33612345678');
    for (const number of Object.values(zoneNumbers)) {
      const masked = maskPhone(number);
      expect(masked.replace(/\D/g, '').length, masked).toBeLessThan(number.length - 4);
      expect(masked.endsWith(number.slice(-2)), masked).toBe(true);
    }
  });

  it('are read with the mobile metadata of libphonenumber-js, cut to the eight countries', () => {
    // Fails after an upgrade of libphonenumber-js until `npm run phone-metadata` is run.
    expect(uemoaPhoneMetadataFrom(mobileMetadata)).toEqual(committedMetadata);
  });
});

describe('the providers of each country', () => {
  it('are those the providers publish, and only theirs are offered', () => {
    expect(providersIn('SN', providerCodes)).toEqual(['orange', 'wave']);
    expect(providersIn('CI', providerCodes)).toEqual(['orange', 'wave', 'mtn', 'moov', 'djamo']);
    expect(providersIn('BJ', providerCodes)).toEqual(['mtn', 'moov']);
    expect(providersIn('TG', providerCodes)).toEqual(['moov']);
    expect(providersIn('NE', providerCodes)).toEqual(['moov']);
    expect(providersIn('ML', providerCodes)).toEqual(['orange', 'wave', 'moov']);
    expect(providersIn('BF', providerCodes)).toEqual(['orange', 'wave', 'moov']);
    expect(providersIn('GW', providerCodes)).toEqual([]);
    expect(providerServes('wave', 'TG')).toBe(false);
  });
});

describe('the sandbox’s test numbers', () => {
  it('are valid mobile numbers of their country, six a country, the same outcomes in each', () => {
    for (const country of uemoaCountries) {
      const phones = sandboxPhonesOf(country);
      expect(Object.values(phones)).toEqual(Object.values(sandboxPhonesOf('CI')));
      for (const number of Object.keys(phones)) expect(readZoneNumber(number)?.country, number).toBe(country);
    }
    expect(sandboxPhonesOf('CI')['+2250700000002']).toBe('declined');
    expect(sandboxBehaviour('+221770000002')).toBe('declined');
    expect(sandboxBehaviour('+2290190000003')).toBe('insufficient_funds');
    expect(sandboxBehaviour('+221771234567')).toBe('success');
  });
});
