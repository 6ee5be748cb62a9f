import type { MetadataJson } from 'libphonenumber-js/core';
import { uemoaCountries } from '#shared/domain/uemoa-countries.ts';

/**
 * The UEMOA countries' part of a libphonenumber-js metadata file. The whole mobile metadata weighs
 * ~100 KB in every bundle that parses a number; the eight countries ~2 KB.
 */
export function uemoaPhoneMetadataFrom(metadata: MetadataJson): MetadataJson {
  const keep: readonly string[] = uemoaCountries;
  const callingCodes: Record<string, string[]> = {};
  for (const [code, countries] of Object.entries(metadata.country_calling_codes)) {
    const ours = countries.filter((country) => keep.includes(country));
    if (ours.length > 0) callingCodes[code] = ours;
  }
  const countries = Object.fromEntries(
    uemoaCountries.map((country) => [country, metadata.countries[country]]),
  );
  return { ...metadata, country_calling_codes: callingCodes, countries, nonGeographic: {} } as MetadataJson;
}
