import { describe, expect, it } from 'vitest';
import { deBefore, plural } from '#shared/pages/format.ts';

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
