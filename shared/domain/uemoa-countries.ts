/**
 * The eight countries of the West African Economic and Monetary Union, which share the franc CFA
 * (XOF): the countries whose payers the service takes, by ISO 3166-1 alpha-2 code.
 */
export const uemoaCountries = ['BJ', 'BF', 'CI', 'GW', 'ML', 'NE', 'SN', 'TG'] as const;
export type UemoaCountry = (typeof uemoaCountries)[number];

/** Where the service started: a store that never said otherwise, and every older store, is here. */
export const defaultCountry: UemoaCountry = 'CI';

export const isUemoaCountry = (value: unknown): value is UemoaCountry =>
  typeof value === 'string' && (uemoaCountries as readonly string[]).includes(value);

/** Their names in the API's messages (English); the pages name them in the page's language. */
export const countryNames: Record<UemoaCountry, string> = {
  BJ: 'Benin',
  BF: 'Burkina Faso',
  CI: "Côte d'Ivoire",
  GW: 'Guinea-Bissau',
  ML: 'Mali',
  NE: 'Niger',
  SN: 'Senegal',
  TG: 'Togo',
};
