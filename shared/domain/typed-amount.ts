/**
 * An amount of francs as a person types it on a phone: `1500`, `1 500` (a space, or the no-break
 * spaces a keyboard or a copied amount brings), with `F`, `FCFA` or `F CFA` after it if they like.
 * Francs have no subunit in use: anything but whole francs is refused rather than rounded.
 * Answers cents (100 to the franc), or undefined for what is not such an amount.
 */
export function typedFrancsToCents(typed: string): number | undefined {
  const digits = typed.replace(/\s*(f\s*cfa|fcfa|f|xof)\s*$/i, '').replace(/[\s\u00a0\u202f]/g, '');
  if (!/^\d{1,13}$/.test(digits)) return undefined;
  const cents = Number(digits) * 100;
  return Number.isSafeInteger(cents) ? cents : undefined;
}
