import { tableName } from '#shared/aws/dynamodb.ts';
import type { GuardedWrite } from '#shared/data/transact.ts';
import type { Money } from '#shared/domain/money.ts';

/**
 * Transaction record: one line of the merchant's transaction list (payments, transfers, escrow
 * releases, refunds), written in the same transaction as the money movement it reports.
 *
 * Keys, bucketed by day (UTC) so a listing seeks to its first day instead of reading history:
 * - pk = TXDAY#<businessId>#<YYYY-MM-DD>, sk = <createdAt>#<id>: a business's transactions of a day.
 *   A store's list reads them too, keeping its store's (shared/data/transaction-list.ts): no index.
 * - pk = TXCOUNT#<storeId>, sk = <YYYY-MM-DD>: the store's day counter, with a count per hour
 *   beside the day's (`h00`..`h23`), added to in the same transaction as the record. A list's
 *   `total` is one query over at most 91 counters per store (a business's list queries its stores'
 *   at once and adds them up), and a page seeks through days and then hours to the hour where it
 *   starts, reading only that hour's earlier items.
 *
 * Neither item is in an index: each index key cost 1 WCU on every line written (a store index on
 * the record, a business index on the counter). A store's list now reads its business's records of
 * the hours its page covers, and a business's list queries a counter range per store (at least
 * 0.5 RCU each): reads on listings, which are far fewer than the lines written. Items written
 * before this change still carry `gsi1pk`/`gsi1sk`; nothing reads them, and they cost nothing
 * until rewritten.
 *
 * Cost of recording one: 2 writes in a transaction (record + counter), 2 WCU each: 4 WCU. A
 * payment's record also carries its journal entry (shared/data/ledger.ts, `within`), which saves
 * the entry an item of its own; with it, the record stays under 1 KB.
 */
export interface TransactionRecord {
  id: string;
  businessId: string;
  storeId: string;
  type: 'payment' | 'transfer' | 'escrow' | 'refund';
  status: 'pending' | 'success' | 'error';
  amount: Money;
  fees: Money;
  currency: string;
  paymentMethod: string;
  counterpartLabel: string;
  counterpartIdentifier: string;
  description: string;
  reference: string;
  createdAt: string;
  transactionDetails?: { id?: string; reference?: string; paymentLinkId?: string };
  paymentRequestId?: string;
  escrowId?: string;
  refundId?: string;
}

export const transactionDay = (createdAt: string) => createdAt.slice(0, 10);

/** The day counter's attribute for the hour of `createdAt` (UTC): `h00` to `h23`. */
export const hourAttribute = (createdAt: string) => `h${createdAt.slice(11, 13)}`;

export function transactionRecordWrites(record: TransactionRecord): GuardedWrite[] {
  const table = tableName();
  const day = transactionDay(record.createdAt);
  const sortKey = `${record.createdAt}#${record.id}`;
  const counter: GuardedWrite = {
    write: {
      Update: {
        TableName: table,
        Key: { pk: `TXCOUNT#${record.storeId}`, sk: day },
        UpdateExpression: 'ADD #count :one, #hour :one SET entity = :entity',
        ExpressionAttributeNames: { '#count': 'count', '#hour': hourAttribute(record.createdAt) },
        ExpressionAttributeValues: { ':one': 1, ':entity': 'transaction_counter' },
      },
    },
  };
  return [
    {
      write: {
        Put: {
          TableName: table,
          Item: {
            pk: `TXDAY#${record.businessId}#${day}`,
            sk: sortKey,
            entity: 'transaction',
            ...record,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    },
    counter,
  ];
}

/**
 * Several lines written in one transaction (a transfer between two stores: the sender's and the
 * receiver's), which may share a counter (two lines of one store): a transaction cannot touch one item twice, so counters
 * of the same owner, day and hour are added to once, by the number of lines.
 */
export function transactionRecordsWrites(records: readonly TransactionRecord[]): GuardedWrite[] {
  const writes: GuardedWrite[] = [];
  const counters = new Map<string, GuardedWrite>();
  for (const write of records.flatMap((record) => transactionRecordWrites(record))) {
    const update = write.write.Update;
    if (!update) {
      writes.push(write);
      continue;
    }
    const key = `${update.Key?.pk}|${update.Key?.sk}|${update.ExpressionAttributeNames?.['#hour']}`;
    const seen = counters.get(key)?.write.Update;
    if (seen?.ExpressionAttributeValues) {
      seen.ExpressionAttributeValues[':one'] = Number(seen.ExpressionAttributeValues[':one']) + 1;
    } else {
      counters.set(key, write);
      writes.push(write);
    }
  }
  return writes;
}

/**
 * A pending line's final status (a transfer's or a refund's, when its provider answers), in the transaction that
 * settles it: 2 WCU there.
 */
export function transactionStatusWrite(
  record: Pick<TransactionRecord, 'id' | 'businessId' | 'createdAt'>,
  status: 'success' | 'error',
): GuardedWrite {
  return {
    write: {
      Update: {
        TableName: tableName(),
        Key: {
          pk: `TXDAY#${record.businessId}#${transactionDay(record.createdAt)}`,
          sk: `${record.createdAt}#${record.id}`,
        },
        UpdateExpression: 'SET #status = :status',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':status': status },
      },
    },
  };
}
