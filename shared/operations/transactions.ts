import {
  type ListTransactionsQuery,
  type TransactionListResponse,
  transactionResponse,
} from '#shared/api/transactions.ts';
import { listingInstant } from '#shared/data/list-snapshot.ts';
import { getStore, listStores } from '#shared/data/store.ts';
import { listTransactions } from '#shared/data/transaction-list.ts';
import type { TransactionRecord } from '#shared/data/transaction-record.ts';
import { type Caller, callerSeesStore } from '#shared/domain/caller.ts';
import { StoreNotFound } from '#shared/errors/businesses.ts';

/**
 * The transaction list of the caller's business, or of one of its stores. A key scoped to a store
 * lists that store whatever it asks for; another business's store is not found.
 */
export async function transactionsOf(
  caller: Caller,
  query: ListTransactionsQuery,
): Promise<TransactionListResponse> {
  const { total, records, asOf } = await transactionRecordsOf(caller, query);
  return {
    total,
    perPage: query.limit,
    currentPage: query.page,
    data: records.map(transactionResponse),
    asOf,
  };
}

/**
 * The same list as its records, with what the API's answer leaves out (a line's `errorReason`,
 * which the dashboard names an end by).
 */
export async function transactionRecordsOf(
  caller: Caller,
  query: ListTransactionsQuery,
): Promise<{ total: number; records: TransactionRecord[]; asOf: string }> {
  const storeId = query.storeId ?? caller.storeId;
  if (storeId !== undefined) {
    if (!callerSeesStore(caller, storeId) || !(await getStore(caller.businessId, storeId)))
      throw new StoreNotFound();
  }
  const { page, asOf: _given, ...rest } = query;
  // The business's list adds up its stores' day counters.
  const [asOf, stores] = await Promise.all([
    query.asOf ?? listingInstant(caller.keyId, { ...rest, storeId }, page),
    storeId === undefined ? listStores(caller.businessId) : [],
  ]);
  const { total, items } = await listTransactions({
    businessId: caller.businessId,
    storeId,
    storeIds: stores.map((store) => store.id),
    startDate: query.startDate,
    endDate: query.endDate,
    page,
    limit: query.limit,
    asOf,
  });
  return { total, records: items, asOf };
}
