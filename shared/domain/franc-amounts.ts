import type { Cents } from '#shared/domain/money.ts';

/**
 * An amount a person typed in whole francs, as they write it: `1500`, `1 500`, `1 500 F`,
 * `1 500 F CFA` (spaces, no-break spaces and the narrow ones `formatAmount` prints). Undefined for
 * anything else: a decimal point or comma (the franc has no subunit in use, and `1.500` would be
 * read as 1 500 by some and 1,5 by others), a sign, letters. Answered in cents.
 */
export function readFrancs(typed: string | undefined): Cents | undefined {
  const digits = (typed ?? '').replace(/\s*F(\s*CFA)?\s*$/i, '').replace(/[\s\u00a0\u202f]/g, '');
  if (!/^[0-9]{1,13}$/.test(digits)) return undefined;
  const cents = Number(digits) * 100;
  return Number.isSafeInteger(cents) ? cents : undefined;
}
