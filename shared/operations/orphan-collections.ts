import { listOrphanCollections, type OrphanCollection } from '#shared/data/orphan-collection.ts';

/**
 * Orphan collections as an operator sees them (`admin orphan-collections`): every one, those still
 * refunding first, and what the service still owes payers. Recording and refunding them is
 * settlement's (shared/settlement/orphan-refunds.ts).
 */
export async function orphanCollectionsReport(): Promise<{
  open: OrphanCollection[];
  ended: OrphanCollection[];
  owedToPayersCents: number;
}> {
  const [open, ended] = await Promise.all([listOrphanCollections('open'), listOrphanCollections('done')]);
  const owedToPayersCents = [...open, ...ended]
    .filter((orphan) => orphan.status !== 'refunded')
    .reduce((sum, orphan) => sum + orphan.amountCents, 0);
  return { open, ended, owedToPayersCents };
}
