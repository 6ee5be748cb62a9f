/**
 * Destination numbers, in the international form carriers take (E.164: `+` and 8 to 15 digits).
 * Integrations in Côte d'Ivoire often hold numbers the local way, so these are accepted and
 * rewritten: `07 00 00 00 01` or `0700000001` (the ten-digit national number), `00225…` and
 * `225…`. Spaces, dots, dashes and brackets between digits are dropped.
 */
export const internationalNumberPattern = /^\+[1-9][0-9]{7,14}$/;

const ivoryCoastCode = '225';
const nationalNumber = /^0[0-9]{9}$/;

export function normalisePhoneNumber(raw: string): string | undefined {
  const compact = raw.trim().replace(/[\s.()-]/g, '');
  let candidate = compact;
  if (nationalNumber.test(compact)) candidate = `+${ivoryCoastCode}${compact}`;
  else if (/^00[0-9]+$/.test(compact)) candidate = `+${compact.slice(2)}`;
  else if (new RegExp(`^${ivoryCoastCode}[0-9]{10}$`).test(compact)) candidate = `+${compact}`;
  return internationalNumberPattern.test(candidate) ? candidate : undefined;
}
