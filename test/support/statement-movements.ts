import { randomUUID } from 'node:crypto';
import { ledgerWrites } from '#shared/data/ledger.ts';
import { transactWrite } from '#shared/data/transact.ts';
import { payoutPostings, smsPurchasePostings } from '#shared/domain/ledger.ts';

/**
 * A statement's two newest kinds of movement, booked on a store's ledger as their paths book them:
 * SMS credit bought for 25 F CFA, and a settled withdrawal of 3 000 F CFA with its 30 F fee.
 */
export async function bookSmsPurchaseAndWithdrawal(businessId: string, storeId: string): Promise<void> {
  const createdAt = new Date().toISOString();
  await transactWrite(
    ledgerWrites({
      id: `sms:${randomUUID()}`,
      kind: 'sms',
      cause: 'test',
      createdAt,
      postings: smsPurchasePostings({ businessId, storeId, price: 2_500 }),
    }),
  );
  await transactWrite(
    ledgerWrites({
      id: `withdrawal:${randomUUID()}`,
      kind: 'withdrawal',
      cause: 'test',
      createdAt,
      postings: payoutPostings({ businessId, storeId, method: 'wave', amount: 300_000, fee: 3_000 }),
    }),
  );
}
