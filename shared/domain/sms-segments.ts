/**
 * How many SMS parts ("segments") a text takes, which is what a message costs. A text written
 * only with the GSM 03.38 alphabet travels as 7-bit GSM: 160 characters in one part, 153 per part
 * once split (the rest of each part carries the concatenation header). Characters of the
 * alphabet's extension table (`^{}\[~]|€` and form feed) are an escape plus a character: two of
 * the 160. Any other character (an emoji, `ç`, `ê`, curly quotes) sends the whole text as UCS-2:
 * 70 UTF-16 code units in one part, 67 per part; an emoji outside the Basic Multilingual Plane is
 * two units. A part never ends between an escape and its character, nor inside a surrogate pair,
 * which is why the count packs characters into parts instead of dividing a total.
 */
export type SmsEncoding = 'GSM-7' | 'UCS-2';

export interface SegmentCount {
  encoding: SmsEncoding;
  segments: number;
  /** Septets (GSM-7) or UTF-16 code units (UCS-2) of the whole text. */
  units: number;
}

const gsmBasic =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?' +
  '¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const gsmExtension = '\f^{}\\[~]|€';

const basicSet = new Set(gsmBasic);
const extensionSet = new Set(gsmExtension);

export const gsmBasicCharacters: readonly string[] = [...basicSet];
export const gsmExtensionCharacters: readonly string[] = [...extensionSet];

export const partLimits = {
  'GSM-7': { single: 160, multipart: 153 },
  'UCS-2': { single: 70, multipart: 67 },
} as const satisfies Record<SmsEncoding, { single: number; multipart: number }>;

/** The septets a character takes in GSM-7, or undefined when it has none. */
function gsmWeight(character: string): number | undefined {
  if (basicSet.has(character)) return 1;
  if (extensionSet.has(character)) return 2;
  return undefined;
}

export function countSegments(text: string): SegmentCount {
  const characters = [...text];
  const gsmWeights = characters.map(gsmWeight);
  const encoding: SmsEncoding = gsmWeights.every((weight) => weight !== undefined) ? 'GSM-7' : 'UCS-2';
  const weights =
    encoding === 'GSM-7' ? (gsmWeights as number[]) : characters.map((character) => character.length);
  const units = weights.reduce((sum, weight) => sum + weight, 0);
  const limits = partLimits[encoding];
  if (units === 0) return { encoding, segments: 0, units };
  if (units <= limits.single) return { encoding, segments: 1, units };
  let segments = 1;
  let used = 0;
  for (const weight of weights) {
    if (used + weight > limits.multipart) {
      segments++;
      used = 0;
    }
    used += weight;
  }
  return { encoding, segments, units };
}

/** Six parts of 153 GSM-7 characters: the longest text a message may carry. */
export const maxBodyCharacters = 918;
