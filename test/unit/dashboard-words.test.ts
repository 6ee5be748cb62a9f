import { describe, expect, it } from 'vitest';
import { lineState } from '#shared/data/transaction-record.ts';
import { countryTimeZones } from '#shared/domain/country-time-zones.ts';
import { readableTime } from '#shared/pages/dashboard-chrome.ts';
import { stateWord } from '#shared/pages/dashboard-transactions.ts';
import { dashboardTime, deBefore, plural } from '#shared/pages/format.ts';

/** The dashboard's words (issue 35): real plurals and French's elision, not `clé(s)` and "Rôle de Aminata". */

describe('plural', () => {
  it('counts as each language does: French 0 and 1 singular, English 1 alone', () => {
    const keysFr = { one: '# clé active', other: '# clés actives' };
    const keysEn = { one: '# active key', other: '# active keys' };
    expect([0, 1, 2, 10].map((count) => plural('fr', count, keysFr))).toEqual([
      '0 clé active',
      '1 clé active',
      '2 clés actives',
      '10 clés actives',
    ]);
    expect([0, 1, 2].map((count) => plural('en', count, keysEn))).toEqual([
      '0 active keys',
      '1 active key',
      '2 active keys',
    ]);
  });
});

describe('deBefore', () => {
  it('elides before a vowel, a mute h and a y before a consonant; not before a consonant or an aspirated h', () => {
    expect(deBefore('Aminata')).toBe('d’Aminata');
    expect(deBefore('Éric')).toBe('d’Éric');
    expect(deBefore('Ousmane')).toBe('d’Ousmane');
    expect(deBefore('Hélène')).toBe('d’Hélène');
    expect(deBefore('Yves')).toBe('d’Yves');
    expect(deBefore('avril 2026')).toBe('d’avril 2026');
    expect(deBefore('Moussa')).toBe('de Moussa');
    expect(deBefore('Yacouba')).toBe('de Yacouba');
    expect(deBefore('Hawa')).toBe('de Hawa');
    expect(deBefore('novembre 2026')).toBe('de novembre 2026');
  });
});

describe('lineState', () => {
  it('names each end by its own word: expired, cancelled, abandoned, declined; failed otherwise', () => {
    const ended = (errorReason?: string) => lineState({ status: 'error', errorReason });
    expect(ended('expired')).toBe('expired');
    expect(ended('cancelled')).toBe('cancelled');
    expect(ended('abandoned')).toBe('abandoned');
    expect(ended('declined')).toBe('declined');
    expect(ended('insufficient_funds')).toBe('declined');
    expect(ended('provider_error')).toBe('failed');
    expect(ended()).toBe('failed');
    expect(lineState({ status: 'success', errorReason: 'expired' })).toBe('success');
    expect(stateWord('fr', { status: 'error', errorReason: 'expired' })).toBe('Expiré');
    expect(stateWord('fr', { status: 'error', errorReason: 'cancelled' })).toBe('Annulé');
    expect(stateWord('fr', { status: 'error', errorReason: 'declined' })).toBe('Refusé');
    expect(stateWord('en', { status: 'error', errorReason: 'cancelled' })).toBe('Cancelled');
  });
});

describe('dashboardTime', () => {
  it('writes every instant one way, where the merchant is: "28/11/2026 à 04:05", "28/11/2026 at 04:05"', () => {
    expect(dashboardTime('2026-11-28T04:05:09.000Z', countryTimeZones.SN, 'fr')).toBe('28/11/2026 à 04:05');
    expect(dashboardTime('2026-11-28T04:05:09.000Z', countryTimeZones.SN, 'en')).toBe('28/11/2026 at 04:05');
    // The API's executedAt reads the same; Benin and Niger are an hour ahead, into the next day here.
    expect(dashboardTime('2026-11-28 23:30:00', countryTimeZones.BJ, 'fr')).toBe('29/11/2026 à 00:30');
    expect(dashboardTime('2026-11-28T04:05:09.000Z')).toBe('28/11/2026 à 04:05');
    expect(readableTime('2026-11-28T04:05:09.000Z', { language: 'en', timeZone: countryTimeZones.NE })).toBe(
      '28/11/2026 at 05:05',
    );
    expect(readableTime(undefined, { language: 'fr' })).toBe('');
  });
});
