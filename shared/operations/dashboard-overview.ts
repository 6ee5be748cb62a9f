import { getBusiness } from '#shared/data/business.ts';
import { collectedThisMonth } from '#shared/data/collection-ceiling.ts';
import { collectionCeiling } from '#shared/domain/ceilings.ts';
import type { Cents } from '#shared/domain/money.ts';
import { BusinessNotFound } from '#shared/errors/businesses.ts';
import type { ActingMember } from '#shared/operations/dashboard-access.ts';

export interface BusinessOverview {
  verificationLevel: number;
  apiAccessEnabled: boolean;
  /** What the business may collect this calendar month (UTC); null: no ceiling. */
  ceiling: Cents | null;
  collected: Cents;
  /**
   * The identity check can be done on this stage: its decision is the sandbox's, so only sandbox
   * stages have its pages (production needs an identity vendor, not built).
   */
  identityCheckOffered: boolean;
}

/** The dashboard home's facts: the level, API access, and the month's ceiling and what is used of it. */
export async function businessOverview(member: ActingMember, at = new Date()): Promise<BusinessOverview> {
  const [business, collected] = await Promise.all([
    getBusiness(member.businessId),
    collectedThisMonth(member.businessId, at),
  ]);
  if (!business) throw new BusinessNotFound();
  return {
    verificationLevel: business.verificationLevel,
    apiAccessEnabled: business.apiAccessEnabled,
    ceiling: collectionCeiling(business.verificationLevel),
    collected,
    identityCheckOffered: process.env.SANDBOX === 'true',
  };
}
