import type { Cents } from '#shared/domain/money.ts';

/**
 * Monthly collection ceilings per verification level: what a business may collect in a calendar
 * month (UTC). A level without a ceiling is unlimited. COLLECTION_CEILINGS (JSON object from level
 * to cents, `null` for unlimited) overrides the defaults.
 */
export const defaultCollectionCeilings: Record<number, Cents | null> = {
  0: 0,
  1: 200_000_000, // 2,000,000 XOF
  2: 1_000_000_000, // 10,000,000 XOF
  3: null,
};

export function collectionCeiling(
  verificationLevel: number,
  overrides = process.env.COLLECTION_CEILINGS,
): Cents | null {
  const ceilings = overrides
    ? { ...defaultCollectionCeilings, ...(JSON.parse(overrides) as Record<number, Cents | null>) }
    : defaultCollectionCeilings;
  const ceiling = ceilings[verificationLevel];
  return ceiling === undefined ? 0 : ceiling;
}

/** The month a collection counts toward, e.g. "2026-11". */
export const ceilingMonth = (at: Date) => at.toISOString().slice(0, 7);
