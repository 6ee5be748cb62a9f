import { randomUUID } from 'node:crypto';
import { ledgerWrites } from '#shared/data/ledger.ts';
import { findStoreBusiness } from '#shared/data/store.ts';
import { transactWrite } from '#shared/data/transact.ts';
import { accounts } from '#shared/domain/ledger.ts';
import type { Cents } from '#shared/domain/money.ts';
import { StoreNotFound } from '#shared/errors/businesses.ts';

/**
 * Funds a store's operating wallet with test money, for tests and demos: a ledger entry from the
 * sandbox funding account, never an edited balance. `entryId` makes a retried credit post once.
 */
export async function creditStore(storeId: string, amount: Cents, entryId = `credit:${randomUUID()}`) {
  if (!Number.isSafeInteger(amount) || amount <= 0)
    throw new RangeError('the amount must be a positive number of cents');
  const businessId = await findStoreBusiness(storeId);
  if (!businessId) throw new StoreNotFound();
  await transactWrite(
    ledgerWrites({
      id: entryId,
      kind: 'credit',
      cause: 'operator credit',
      createdAt: new Date().toISOString(),
      postings: [
        { account: accounts.sandboxFunding, amount: -amount },
        { account: accounts.wallet(businessId, storeId, 'operating'), amount },
      ],
    }),
  );
  return { entryId, storeId, amount };
}
