import {
  getCountryCallingCode,
  type MetadataJson,
  type PhoneNumber,
  parsePhoneNumberFromString,
} from 'libphonenumber-js/core';
import { defaultCountry, isUemoaCountry, type UemoaCountry } from '#shared/domain/uemoa-countries.ts';
import metadataJson from '#shared/domain/uemoa-phone-metadata.json' with { type: 'json' };

/**
 * Phone numbers: how any field reads one, and how a page shows one. Stored and answered in E.164
 * (`+` and the digits).
 *
 * A number of the eight UEMOA countries is checked against libphonenumber-js's mobile metadata for
 * that country (mobile money and SMS reach mobiles only). Its national form (`07 00 00 00 01`)
 * is read in a given country, the store's, Côte d'Ivoire when there is none, so a number typed as
 * payers write it stays in their country. Spaces, dots, dashes and brackets are dropped, and
 * `00…` or the bare calling code (`225…`) read as `+…`, as integrations send them.
 *
 * Which field takes what ([docs/integrators/phone-numbers.md]): mobile-money numbers (payer
 * phones, contacts, beneficiaries) must be numbers of the zone; SMS recipients and users' phones
 * also take a number of another country, in international form, checked only for its shape (the
 * whole world's metadata would add ~100 KB to every bundle that reads a number).
 */

const metadata = metadataJson as unknown as MetadataJson;

/** E.164's shape: `+`, a country code that does not start with 0, 8 to 15 digits in all. */
export const internationalNumberPattern = /^\+[1-9][0-9]{7,14}$/;

export interface ZoneNumber {
  /** `+2250700000001` */
  e164: string;
  country: UemoaCountry;
}

const separators = /[\s.()-]/g;

/** Digits as typed, with `00` read as `+`; undefined when anything else than digits is left. */
function compactForm(raw: string | undefined): string | undefined {
  const compact = (raw ?? '').trim().replace(separators, '');
  if (!/^\+?[0-9]{1,20}$/.test(compact)) return undefined;
  return compact.startsWith('00') ? `+${compact.slice(2)}` : compact;
}

function zoneNumberOf(parsed: PhoneNumber | undefined): ZoneNumber | undefined {
  if (!parsed?.isValid() || !isUemoaCountry(parsed.country)) return undefined;
  return { e164: parsed.number, country: parsed.country };
}

/**
 * A mobile number of one of the eight countries, or undefined. A number without `+` is read first
 * as a national number of `country`, then as an international one missing its `+` (`225…`);
 * with `null` (a field that has no country to read it in), only international forms are read.
 */
export function readZoneNumber(
  raw: string | undefined,
  country: UemoaCountry | null = defaultCountry,
): ZoneNumber | undefined {
  const compact = compactForm(raw);
  if (!compact) return undefined;
  if (compact.startsWith('+')) return zoneNumberOf(parsePhoneNumberFromString(compact, metadata));
  const national = country && zoneNumberOf(parsePhoneNumberFromString(compact, country, metadata));
  return national || zoneNumberOf(parsePhoneNumberFromString(`+${compact}`, metadata));
}

/** The country of a stored number, when it is a number of the zone. */
export const countryOfNumber = (e164: string): UemoaCountry | undefined => readZoneNumber(e164)?.country;

/** Whether an international number's calling code is one of the zone's (+221, +225, …). */
const hasZoneCallingCode = (international: string): boolean =>
  Object.keys(metadata.country_calling_codes).some((code) => international.startsWith(`+${code}`));

/**
 * A number for a field that also takes other countries' (SMS recipients, users): a mobile number
 * of the zone, read as {@link readZoneNumber} does, or any other country's in international form.
 * A number with a zone calling code that is not a valid mobile number there is refused.
 */
export function normalisePhoneNumber(
  raw: string | undefined,
  country: UemoaCountry = defaultCountry,
): string | undefined {
  const zone = readZoneNumber(raw, country);
  if (zone) return zone.e164;
  const compact = compactForm(raw);
  if (!compact?.startsWith('+') || hasZoneCallingCode(compact)) return undefined;
  return internationalNumberPattern.test(compact) ? compact : undefined;
}

/**
 * The national digits in the groups they are read aloud in: libphonenumber-js's, except for
 * Côte d'Ivoire, whose metadata groups `07 00 00 0001` where Ivorians print pairs.
 */
function nationalGroups(e164: string): { callingCode: string; groups: string[] } | undefined {
  const parsed = parsePhoneNumberFromString(e164, metadata);
  if (!parsed?.isValid() || !isUemoaCountry(parsed.country)) return undefined;
  const groups =
    parsed.country === 'CI'
      ? (parsed.nationalNumber.match(/\d{1,2}/g) ?? [])
      : parsed.formatNational().split(/\s+/);
  return { callingCode: parsed.countryCallingCode, groups };
}

/** +2250700000001 → "+225 07 00 00 00 01"; another country's number as it is. */
export function formatPhone(e164: string): string {
  const number = nationalGroups(e164);
  // No-break spaces: a number split over two lines is misread.
  return number ? `+${number.callingCode}\u00a0${number.groups.join('\u00a0')}` : e164;
}

/** +2250707123456 → "07 07 12 34 56", for a field whose country is chosen beside it. */
export function localPhone(e164: string): string {
  return nationalGroups(e164)?.groups.join(' ') ?? e164;
}

/**
 * +2250707123456 → "+225 07 •• •• •• 56", +221771234567 → "+221 77 ••• •• 67": the first group and
 * the last two digits, enough for the payer to recognise, not to reuse.
 */
export function maskPhone(e164: string): string {
  const number = nationalGroups(e164);
  if (!number) return e164;
  const [first = '', ...rest] = number.groups;
  const hidden = rest.join(' ');
  const kept = hidden.length - 2;
  const masked = [...hidden].map((char, index) => (char === ' ' || index >= kept ? char : '•')).join('');
  return `+${number.callingCode}\u00a0${first}\u00a0${masked.replace(/ /g, '\u00a0')}`;
}

/** A country's calling code, without its `+`: `CI` → `225`. */
export const callingCodeOf = (country: UemoaCountry): string => getCountryCallingCode(country, metadata);
