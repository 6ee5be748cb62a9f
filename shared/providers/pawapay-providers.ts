import type { ProviderCode } from '#shared/domain/payment-methods.ts';
import type { UemoaCountry } from '#shared/domain/uemoa-countries.ts';

/**
 * pawaPay's provider code for each operator of the zone it serves, by country (the `provider` of a
 * deposit's payer or a payout's recipient). From pawaPay's providers table
 * (https://docs.pawapay.io/v2/docs/providers) and its sandbox's active configuration
 * (https://docs.pawapay.io/v2/api-reference/toolkit/active-configuration): Benin, Burkina Faso and
 * MTN Côte d'Ivoire are in the published table; Orange Côte d'Ivoire and Orange/Free Senegal in
 * the sandbox's configuration; Mali, Togo and Niger follow the same `<OPERATOR>_<ISO3>` pattern and
 * are to be confirmed against the account's own `GET /v2/active-conf` before they are routed on
 * production (docs/operations/live-providers.md). Wave stays on its own adapter, and Djamo has no
 * public API anywhere.
 */
export const pawapayProviders: Partial<Record<ProviderCode, Partial<Record<UemoaCountry, string>>>> = {
  orange: { CI: 'ORANGE_CIV', SN: 'ORANGE_SEN', ML: 'ORANGE_MLI', BF: 'ORANGE_BFA' },
  mtn: { CI: 'MTN_MOMO_CIV', BJ: 'MTN_MOMO_BEN' },
  moov: { BJ: 'MOOV_BEN', TG: 'MOOV_TGO', NE: 'MOOV_NER', BF: 'MOOV_BFA', ML: 'MOOV_MLI', CI: 'MOOV_CIV' },
};

/** pawaPay's countries are ISO 3166 alpha-3. */
export const alpha3: Record<UemoaCountry, string> = {
  BJ: 'BEN',
  BF: 'BFA',
  CI: 'CIV',
  GW: 'GNB',
  ML: 'MLI',
  NE: 'NER',
  SN: 'SEN',
  TG: 'TGO',
};

/** The pawaPay provider of a method in a country; undefined where pawaPay does not carry it. */
export const pawapayProviderOf = (method: ProviderCode, country: UemoaCountry): string | undefined =>
  pawapayProviders[method]?.[country];

/** Each pawaPay provider code of the table, with its method and country. */
export const pawapayProviderEntries = Object.entries(pawapayProviders).flatMap(([method, byCountry]) =>
  Object.entries(byCountry ?? {}).map(([country, code]) => ({
    code,
    method: method as ProviderCode,
    country: country as UemoaCountry,
  })),
);

/** The method of a pawaPay provider code of the table (`ORANGE_CIV` → orange); undefined for another. */
export const pawapayMethodOf = (code: string | undefined): ProviderCode | undefined =>
  pawapayProviderEntries.find((entry) => entry.code === code)?.method;
