/**
 * The time zone of each of the eight countries of the franc CFA (BCEAO) zone, as the IANA
 * database names them: a receipt shows its times where the store is. Six are on UTC all year,
 * Benin and Niger on UTC+1; none changes with the seasons.
 */
export const countryTimeZones = {
  CI: 'Africa/Abidjan',
  SN: 'Africa/Dakar',
  ML: 'Africa/Bamako',
  BF: 'Africa/Ouagadougou',
  TG: 'Africa/Lome',
  BJ: 'Africa/Porto-Novo',
  NE: 'Africa/Niamey',
  GW: 'Africa/Bissau',
} as const satisfies Record<string, string>;

export type ZoneCountry = keyof typeof countryTimeZones;

/** A store's country until stores carry one: Côte d'Ivoire, where every store was made before. */
export const defaultStoreCountry: ZoneCountry = 'CI';

/** The time zone a store's times are shown in: its country's, Côte d'Ivoire's for a store without one. */
export function storeTimeZone(store: object): string {
  const country = (store as { country?: string }).country ?? defaultStoreCountry;
  return countryTimeZones[country as ZoneCountry] ?? countryTimeZones[defaultStoreCountry];
}
