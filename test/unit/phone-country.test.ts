import { describe, expect, it } from 'vitest';
import type { Store } from '#shared/data/store.ts';
import {
  commonWallets,
  everyProviderByUse,
  providerServes,
  providersByUseIn,
} from '#shared/domain/operator-countries.ts';
import { providerCodes } from '#shared/domain/payment-methods.ts';
import { normalisePhoneNumber, readZoneNumber } from '#shared/domain/phone-numbers.ts';
import { type UemoaCountry, uemoaCountries } from '#shared/domain/uemoa-countries.ts';
import { checkAskForm } from '#shared/operations/dashboard-payment-requests.ts';
import { operatorName } from '#shared/pages/messages.ts';
import { phoneCountryOf, phoneExamples, regionCountryOf } from '#shared/pages/phone-country.ts';

describe('the country a dashboard phone field reads national numbers in', () => {
  it('is the region of the browser’s language when it is one of the zone', () => {
    expect(regionCountryOf('fr-SN')).toBe('SN');
    expect(regionCountryOf('fr-SN,fr;q=0.9,en;q=0.8')).toBe('SN');
    expect(regionCountryOf('en-GB,en;q=0.9,fr-ML;q=0.5')).toBe('ML');
    expect(regionCountryOf('fr-Latn-BF')).toBe('BF');
    expect(regionCountryOf('fr-ci')).toBe('CI');
    // The browser's preference decides, not the order written.
    expect(regionCountryOf('fr-ML;q=0.4,fr-TG;q=0.7')).toBe('TG');
    expect(regionCountryOf('fr-FR,en-US')).toBeUndefined();
    expect(regionCountryOf('fr-SN;q=0')).toBeUndefined();
    expect(regionCountryOf('fr')).toBeUndefined();
    expect(regionCountryOf(undefined)).toBeUndefined();
  });

  it('is the form’s choice, else the business’s country, else the browser’s, else Côte d’Ivoire', () => {
    expect(phoneCountryOf('SN', { businessCountry: 'ML', acceptLanguage: 'fr-BJ' })).toBe('SN');
    expect(phoneCountryOf('sn')).toBe('SN');
    expect(phoneCountryOf('FR', { businessCountry: 'ML', acceptLanguage: 'fr-BJ' })).toBe('ML');
    expect(phoneCountryOf(undefined, { acceptLanguage: 'fr-BJ' })).toBe('BJ');
    expect(phoneCountryOf(undefined, { acceptLanguage: 'en-GB' })).toBe('CI');
    expect(phoneCountryOf('')).toBe('CI');
  });
});

describe('a number typed the local way, in the country chosen', () => {
  it('reads a Senegalese owner’s 77 738 49 78 in Senegal, not in Côte d’Ivoire', () => {
    expect(normalisePhoneNumber('77 738 49 78', 'SN')).toBe('+221777384978');
    expect(normalisePhoneNumber('77.738.49.78', 'SN')).toBe('+221777384978');
    expect(normalisePhoneNumber('77 738 49 78')).toBeUndefined();
    expect(normalisePhoneNumber('77 738 49 78', 'CI')).toBeUndefined();
  });

  it('keeps the international form whatever the country chosen', () => {
    expect(normalisePhoneNumber('+221 77 738 49 78', 'CI')).toBe('+221777384978');
    expect(normalisePhoneNumber('00221777384978', 'ML')).toBe('+221777384978');
    expect(normalisePhoneNumber('+225 07 07 12 34 56', 'SN')).toBe('+2250707123456');
    expect(normalisePhoneNumber('+33 6 12 34 56 78', 'SN')).toBe('+33612345678');
  });

  it('reads each country’s example number in its own country, as the hint shows it', () => {
    for (const country of uemoaCountries) {
      const { local } = phoneExamples(country, 'fr');
      expect(readZoneNumber(local, country)?.country, `${country}: ${local}`).toBe(country);
    }
  });
});

describe('the phone field’s examples', () => {
  it('are numbers of the business’s own country, in the page’s language', () => {
    const senegal = phoneExamples('SN', 'fr');
    expect(senegal.local).toBe('77 123 45 67');
    expect(senegal.hint).toBe(
      'Par exemple 77\u00a0123\u00a045\u00a067 au Sénégal, ou +221\u00a077\u00a0123\u00a045\u00a067',
    );
    expect(senegal.invalid).toContain('au Sénégal, par exemple 77\u00a0123\u00a045\u00a067');
    expect(phoneExamples('SN', 'en').hint).toContain('77\u00a0123\u00a045\u00a067 in Senegal');
    expect(phoneExamples('CI', 'en').local).toBe('07 07 12 34 56');
    expect(phoneExamples('ML', 'fr').hint).not.toContain('07 07');
  });
});

describe('operators in the order a country uses them', () => {
  it('puts Wave first in Senegal and Côte d’Ivoire, where it is the common wallet', () => {
    expect(providersByUseIn('SN', providerCodes)).toEqual(['wave', 'orange']);
    expect(providersByUseIn('CI', providerCodes)[0]).toBe('wave');
    expect(providersByUseIn('ML', providerCodes)[0]).toBe('orange');
    expect(providersByUseIn('BJ', providerCodes)[0]).toBe('mtn');
    expect(providersByUseIn('GW', providerCodes)).toEqual([]);
    expect(providersByUseIn(undefined, providerCodes)[0]).toBe('wave');
  });

  it('names as common only a provider that serves the country', () => {
    for (const [country, provider] of Object.entries(commonWallets)) {
      expect(providerServes(provider, country as UemoaCountry), `${country}: ${provider}`).toBe(true);
    }
  });

  it('lists every provider for a select, the country’s own first', () => {
    expect(everyProviderByUse('SN', providerCodes)).toEqual(['wave', 'orange', 'mtn', 'moov', 'djamo']);
    expect(everyProviderByUse('BJ', providerCodes)).toEqual(['mtn', 'moov', 'orange', 'wave', 'djamo']);
  });
});

describe('operators on the dashboard', () => {
  it('are named as people know them, never by their codes', () => {
    expect(operatorName('fr', 'wave')).toBe('Wave');
    expect(operatorName('fr', 'orange')).toBe('Orange Money');
    expect(operatorName('en', 'orange_money')).toBe('Orange Money');
    expect(operatorName('en', 'mtn')).toBe('MTN MoMo');
    expect(operatorName('fr', 'moov')).toBe('Moov Money');
    expect(operatorName('fr', 'djamo')).toBe('Djamo');
    expect(operatorName('fr', 'bank')).toBe('Virement bancaire');
    expect(operatorName('en', 'svc')).toBe('Between points of sale');
    expect(operatorName('fr', undefined)).toBeUndefined();
  });
});

describe('asking a Senegalese payer for a payment', () => {
  const store = (country: UemoaCountry) => ({ id: 'store-1', country }) as Store;
  const form = { storeId: 'store-1', amount: '1 500', note: '' };

  it('reads the number typed the local way in the store’s country and offers Wave first', () => {
    const checked = checkAskForm({ ...form, payerPhone: '77 738 49 78' }, [store('SN')]);
    expect(checked).toMatchObject({ ask: { payerPhone: '+221777384978', paymentMethod: 'wave' } });
  });

  it('reads it in the country chosen beside it, whatever the store’s', () => {
    const refused = checkAskForm({ ...form, payerPhone: '77 738 49 78' }, [store('CI')]);
    expect(refused).toEqual({ errors: [{ field: 'payerPhone', rule: 'format' }] });
    const chosen = checkAskForm({ ...form, payerPhone: '77 738 49 78', phoneCountry: 'SN' }, [store('CI')]);
    expect(chosen).toMatchObject({ ask: { payerPhone: '+221777384978', paymentMethod: 'wave' } });
  });

  it('offers the common wallet of the payer’s country: Orange Money in Mali, MTN MoMo in Benin', () => {
    const mali = checkAskForm({ ...form, payerPhone: '+223 70 12 34 56' }, [store('SN')]);
    expect(mali).toMatchObject({ ask: { paymentMethod: 'orange' } });
    const benin = checkAskForm({ ...form, payerPhone: '+229 01 90 12 34 56' }, [store('SN')]);
    expect(benin).toMatchObject({ ask: { paymentMethod: 'mtn' } });
  });
});
