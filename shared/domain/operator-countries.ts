import type { ProviderCode } from '#shared/domain/payment-methods.ts';
import { type UemoaCountry, uemoaCountries } from '#shared/domain/uemoa-countries.ts';

/**
 * Which provider takes mobile money in which country of the zone, as each publishes it (the
 * table and its sources: docs/integrators/phone-numbers.md). A payer's number decides the
 * country: the payer page offers only its providers, and a payment, contact or transfer naming
 * another provider for that number is refused. Guinea-Bissau's numbers are valid but no provider
 * of the service takes money there: its payers are told so rather than sent to a provider that
 * would refuse them.
 */
export const providerCountries: Record<ProviderCode, readonly UemoaCountry[]> = {
  wave: ['SN', 'CI', 'ML', 'BF'],
  orange: ['SN', 'CI', 'ML', 'BF'],
  mtn: ['CI', 'BJ'],
  moov: ['BJ', 'TG', 'NE', 'BF', 'ML', 'CI'],
  djamo: ['CI'],
};

export const providerServes = (provider: ProviderCode, country: UemoaCountry): boolean =>
  providerCountries[provider].includes(country);

/** The providers of a country, in the order the service lists them everywhere. */
export function providersIn<Code extends ProviderCode>(
  country: UemoaCountry,
  order: readonly Code[],
): Code[] {
  return order.filter((provider) => providerServes(provider, country));
}

/** The countries where a provider is one of the payer's choices. */
export const countriesWithProviders: readonly UemoaCountry[] = uemoaCountries.filter((country) =>
  Object.values(providerCountries).some((countries) => countries.includes(country)),
);
