import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { carrierOutcomeOf } from '#shared/domain/sms-events.ts';
import {
  countSegments,
  gsmBasicCharacters,
  gsmExtensionCharacters,
  partLimits,
} from '#shared/domain/sms-segments.ts';

const gsmBasic = fc.constantFrom(...gsmBasicCharacters);
const gsmExtension = fc.constantFrom(...gsmExtensionCharacters);
const gsmAny = fc.oneof(gsmBasic, gsmExtension);
const gsmSet = new Set([...gsmBasicCharacters, ...gsmExtensionCharacters]);
/** Characters of the Basic Multilingual Plane that GSM-7 lacks: one UTF-16 unit each. */
const ucs2Only = fc
  .integer({ min: 0xa0, max: 0xd7ff })
  .map((code) => String.fromCodePoint(code))
  .filter((character) => !gsmSet.has(character));
/** Emoji and other characters beyond the BMP: two UTF-16 units each. */
const astral = fc.integer({ min: 0x1f300, max: 0x1faff }).map((code) => String.fromCodePoint(code));
const anyCharacter = fc.oneof(gsmAny, ucs2Only, astral);

const ceilDiv = (a: number, b: number) => Math.ceil(a / b);

describe('the SMS segment counter', () => {
  it('counts plain ASCII as GSM-7: 160 in one part, 153 per part beyond', () => {
    expect(countSegments('Merci pour votre achat')).toEqual({ encoding: 'GSM-7', segments: 1, units: 22 });
    expect(countSegments('a'.repeat(160)).segments).toBe(1);
    expect(countSegments('a'.repeat(161)).segments).toBe(2);
    expect(countSegments('a'.repeat(306)).segments).toBe(2);
    expect(countSegments('a'.repeat(307)).segments).toBe(3);
    expect(countSegments('a'.repeat(918)).segments).toBe(6);
  });

  it('keeps the French accents of the GSM alphabet in GSM-7, and any other in UCS-2', () => {
    expect(countSegments('Réglé à 15h, où ça ? è ù ì ò').encoding).toBe('UCS-2'); // ç is not GSM (Ç is)
    expect(countSegments('Réglé à 15h, où est-il ? è ù ì ò Ç').encoding).toBe('GSM-7');
    expect(countSegments('Votre reçu').encoding).toBe('UCS-2');
    expect(countSegments('ç'.repeat(70)).segments).toBe(1);
    expect(countSegments('ç'.repeat(71)).segments).toBe(2);
    expect(countSegments('ç'.repeat(134)).segments).toBe(2);
    expect(countSegments('ç'.repeat(135)).segments).toBe(3);
  });

  it('counts an emoji as two UCS-2 units and never splits it across parts', () => {
    expect(countSegments('Merci 🙏')).toEqual({ encoding: 'UCS-2', segments: 1, units: 8 });
    expect(countSegments('😀'.repeat(35)).segments).toBe(1);
    // 72 units: parts of 67 hold 33 emoji (66 units), the 34th would be cut in half.
    expect(countSegments('😀'.repeat(36)).segments).toBe(2);
    expect(countSegments('😀'.repeat(66)).segments).toBe(2);
    expect(countSegments('😀'.repeat(67)).segments).toBe(3);
  });

  it('counts a GSM-7 extension character as two, and never splits one across parts', () => {
    expect(countSegments('Total: 15€')).toEqual({ encoding: 'GSM-7', segments: 1, units: 11 });
    expect(countSegments('€'.repeat(80)).segments).toBe(1);
    expect(countSegments('€'.repeat(81)).segments).toBe(2);
    // 152 plain characters then a €: it does not fit in the first part's last septet.
    expect(countSegments(`${'a'.repeat(152)}€${'a'.repeat(152)}`).segments).toBe(3);
    expect(countSegments(`${'a'.repeat(151)}€${'a'.repeat(153)}`).segments).toBe(2);
  });

  it('takes ceil(n / 153) parts for n > 160 characters of the basic alphabet (property)', () => {
    fc.assert(
      fc.property(fc.array(gsmBasic, { minLength: 1, maxLength: 918 }), (characters) => {
        const n = characters.length;
        const count = countSegments(characters.join(''));
        expect(count.encoding).toBe('GSM-7');
        expect(count.units).toBe(n);
        expect(count.segments).toBe(n <= 160 ? 1 : ceilDiv(n, 153));
      }),
    );
  });

  it('counts every extension character twice (property)', () => {
    const extension = new Set(gsmExtensionCharacters);
    fc.assert(
      fc.property(fc.array(gsmAny, { minLength: 1, maxLength: 918 }), (characters) => {
        const count = countSegments(characters.join(''));
        expect(count.encoding).toBe('GSM-7');
        const doubled = characters.filter((character) => extension.has(character)).length;
        expect(count.units).toBe(characters.length + doubled);
      }),
    );
  });

  it('fits 76 extension characters per part once split (property)', () => {
    fc.assert(
      fc.property(fc.array(gsmExtension, { minLength: 1, maxLength: 459 }), (characters) => {
        const k = characters.length;
        expect(countSegments(characters.join('')).segments).toBe(2 * k <= 160 ? 1 : ceilDiv(k, 76));
      }),
    );
  });

  it('sends the whole text as UCS-2 as soon as one character is outside GSM-7 (property)', () => {
    fc.assert(
      fc.property(fc.array(gsmAny, { maxLength: 300 }), ucs2Only, fc.nat(), (characters, other, at) => {
        const position = at % (characters.length + 1);
        const text = [...characters.slice(0, position), other, ...characters.slice(position)].join('');
        const count = countSegments(text);
        expect(count.encoding).toBe('UCS-2');
        expect(count.units).toBe(characters.length + 1);
        const n = characters.length + 1;
        expect(count.segments).toBe(n <= 70 ? 1 : ceilDiv(n, 67));
      }),
    );
  });

  it('fills parts with at most one unit lost at each boundary, and never fewer parts than the units need (property)', () => {
    fc.assert(
      fc.property(fc.array(anyCharacter, { minLength: 1, maxLength: 918 }), (characters) => {
        const { encoding, segments, units } = countSegments(characters.join(''));
        const { single, multipart } = partLimits[encoding];
        if (segments === 1) expect(units).toBeLessThanOrEqual(single);
        else {
          expect(units).toBeGreaterThan(single);
          expect(units).toBeLessThanOrEqual(segments * multipart);
          expect(units).toBeGreaterThan((segments - 1) * (multipart - 1));
        }
      }),
    );
  });

  it('never costs less when the text grows (property)', () => {
    fc.assert(
      fc.property(
        fc.array(anyCharacter, { minLength: 1, maxLength: 600 }),
        fc.array(anyCharacter, { maxLength: 300 }),
        (start, more) => {
          const before = countSegments(start.join(''));
          const after = countSegments([...start, ...more].join(''));
          if (before.encoding === after.encoding)
            expect(after.segments).toBeGreaterThanOrEqual(before.segments);
          else expect(after.encoding).toBe('UCS-2');
        },
      ),
    );
  });
});

describe('the carrier outcome of a delivery event', () => {
  it('reads delivered, a final TEXT_SUCCESSFUL as delivered, and names each failure', () => {
    expect(carrierOutcomeOf({ eventType: 'TEXT_DELIVERED', isFinal: true })).toEqual({ status: 'delivered' });
    expect(carrierOutcomeOf({ eventType: 'TEXT_SUCCESSFUL', isFinal: true })).toEqual({
      status: 'delivered',
    });
    expect(carrierOutcomeOf({ eventType: 'TEXT_SUCCESSFUL', isFinal: false })).toEqual({ status: 'sent' });
    expect(carrierOutcomeOf({ eventType: 'TEXT_CARRIER_BLOCKED', isFinal: true })).toEqual({
      status: 'failed',
      failedReason: 'carrier_rejected',
    });
    expect(carrierOutcomeOf({ eventType: 'TEXT_TTL_EXPIRED', isFinal: true })).toEqual({
      status: 'failed',
      failedReason: 'expired',
    });
    expect(carrierOutcomeOf({ eventType: 'TEXT_SOMETHING_NEW', isFinal: true })).toEqual({
      status: 'failed',
      failedReason: 'unknown',
    });
  });

  it('ignores queued and pending events, and events of other channels', () => {
    expect(carrierOutcomeOf({ eventType: 'TEXT_QUEUED', isFinal: false })).toBeUndefined();
    expect(carrierOutcomeOf({ eventType: 'TEXT_PENDING', isFinal: false })).toBeUndefined();
    expect(carrierOutcomeOf({ eventType: 'VOICE_COMPLETED', isFinal: true })).toBeUndefined();
  });
});
