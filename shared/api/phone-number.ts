import { globalRegistry, overwrite, pipe, string, superRefine } from 'zod/mini';
import type { $RefinementCtx } from 'zod/v4/core';
import { transformWithIssues } from '#shared/api/common.ts';
import { providerCountries, providerServes } from '#shared/domain/operator-countries.ts';
import type { ProviderCode } from '#shared/domain/payment-methods.ts';
import { normalisePhoneNumber, readZoneNumber } from '#shared/domain/phone-numbers.ts';
import { countryNames } from '#shared/domain/uemoa-countries.ts';

/**
 * A phone number field that also takes other countries' numbers (SMS recipients, users), normalised
 * to E.164; a number that cannot be read is rule `format`.
 */
export const phoneNumber = (field: string) =>
  pipe(
    string(),
    transformWithIssues((raw, context) => {
      const normalised = normalisePhoneNumber(raw);
      if (normalised) return normalised;
      context.addIssue({
        code: 'custom',
        params: { rule: 'format' },
        message: `The ${field} field must be a mobile number of a UEMOA country (+221…, +225…, or an Ivorian number such as 0700000001), or another country's in international form (+ and 8 to 15 digits).`,
      });
      return raw;
    }),
  );

export const zoneNumberMessage = (field: string) =>
  `The ${field} field must be a mobile number of a UEMOA country in international form: +221 (Senegal), +223 (Mali), +225 (Côte d'Ivoire), +226 (Burkina Faso), +227 (Niger), +228 (Togo), +229 (Benin) or +245 (Guinea-Bissau), then the number (+2250700000001, +221771234567).`;

/**
 * A mobile-money number in international form (`+`, `00` or the bare calling code), stored in
 * E.164. An overwrite, not a transform, so the request body keeps its examples in the reference.
 */
export const zoneMobileNumber = (field: string) =>
  string()
    .check(
      overwrite((raw) => readZoneNumber(raw, null)?.e164 ?? raw),
      superRefine((value, context) => {
        if (readZoneNumber(value, null)) return;
        context.addIssue({ code: 'custom', params: { rule: 'format' }, message: zoneNumberMessage(field) });
      }),
    )
    .register(globalRegistry, {
      description: 'A mobile number of one of the eight UEMOA countries, in international form.',
      examples: ['+2250700000001'],
    });

/** Why a provider cannot take a number: the country it is of is not one of the provider's. */
export function unservedNumberMessage(
  field: string,
  provider: ProviderCode,
  e164: string,
): string | undefined {
  const country = readZoneNumber(e164, null)?.country;
  if (!country || providerServes(provider, country)) return undefined;
  const theirs = providerCountries[provider].map((code) => countryNames[code]).join(', ');
  return `The ${field} field is a number of ${countryNames[country]}, where ${provider} does not take payments (${provider} serves ${theirs}).`;
}

/** Adds the issue of {@link unservedNumberMessage}, rule `provider_country`, at `path`. */
export function refuseUnservedNumber(
  context: $RefinementCtx,
  path: (string | number)[],
  provider: ProviderCode,
  e164: string,
): void {
  const message = unservedNumberMessage(path.join('.'), provider, e164);
  if (message) context.addIssue({ code: 'custom', path, params: { rule: 'provider_country' }, message });
}
