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

/**
 * The wallet most people of a country pay with, which the dashboard lists first and picks when it
 * must pick one (a payment request's provider, a beneficiary's operator). Wave is the everyday
 * wallet in Senegal and has become it in Côte d'Ivoire (free deposits and withdrawals, 1 % to
 * send); Orange Money still leads in Mali and Burkina Faso, MTN MoMo in Benin, Moov Money (Flooz)
 * in Togo and Niger. Only providers that serve the country per {@link providerCountries} may be
 * named (a test holds it); Guinea-Bissau has none.
 */
export const commonWallets: Partial<Record<UemoaCountry, ProviderCode>> = {
  SN: 'wave',
  CI: 'wave',
  ML: 'orange',
  BF: 'orange',
  BJ: 'mtn',
  TG: 'moov',
  NE: 'moov',
};

/**
 * The providers of a country, its common wallet first, then the others in `order`; with no
 * country, `order` itself with Wave first (the service's most used wallet).
 */
export function providersByUseIn<Code extends ProviderCode>(
  country: UemoaCountry | null | undefined,
  order: readonly Code[],
): Code[] {
  const first = country ? commonWallets[country] : 'wave';
  const served = country ? providersIn(country, order) : [...order];
  const common = served.find((code) => code === first);
  return common ? [common, ...served.filter((code) => code !== common)] : served;
}

/**
 * Every provider of `order` for a select whose number may be of another country: the country's
 * own first ({@link providersByUseIn}), then the others.
 */
export function everyProviderByUse<Code extends ProviderCode>(
  country: UemoaCountry | null | undefined,
  order: readonly Code[],
): Code[] {
  const own = providersByUseIn(country, order);
  return [...own, ...order.filter((code) => !own.includes(code))];
}
