import { readZoneNumber } from '#shared/domain/phone-numbers.ts';
import { defaultCountry, isUemoaCountry, type UemoaCountry } from '#shared/domain/uemoa-countries.ts';

/**
 * The country a payer page reads a national number in and offers the providers of: the payer's
 * choice, else the country of the number already known, else the store's, else Côte d'Ivoire.
 */
export function payerCountryOf(
  chosen: { payerCountry?: string | undefined } | undefined,
  known: { storeCountry?: UemoaCountry | undefined; payerPhone?: string | undefined },
): UemoaCountry {
  if (isUemoaCountry(chosen?.payerCountry)) return chosen.payerCountry;
  const ofNumber = known.payerPhone ? readZoneNumber(known.payerPhone, null)?.country : undefined;
  return ofNumber ?? known.storeCountry ?? defaultCountry;
}
