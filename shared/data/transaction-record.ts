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
 *   beside the day's (`h00`..`h23`), added to in the same transaction as the record, and the
 *   money the day's lines moved once it moved (`collected`, `refunded`, `paidOut` in cents, each
 *   with its `…Count`; see `moneyMovedBy`), which the dashboard's home reads. A list's
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
/**
 * What a line reports: money in, money sent, an escrow released, a refund, or SMS credit bought
 * from the store's balance (`sms_credit`, issue 34). Integrations read `payment` and `transfer`
 * (and `escrow`); the list's full set is not part of the field contract.
 */
export const transactionTypes = ['payment', 'transfer', 'escrow', 'refund', 'sms_credit'] as const;
export type TransactionType = (typeof transactionTypes)[number];

export interface TransactionRecord {
  id: string;
  businessId: string;
  storeId: string;
  type: TransactionType;
  status: 'pending' | 'success' | 'error';
  /** Why a payment's line ended in `error` (its request's reason: `expired`, `cancelled`, `declined`…). */
  errorReason?: string;
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

/** How a line ended, as the dashboard names it: each end by its own word, not all as a failure. */
export type LineState = 'pending' | 'success' | 'expired' | 'cancelled' | 'abandoned' | 'declined' | 'failed';

/**
 * A line's (or a payment request's) state from its status and its reason: expired, cancelled
 * (by the merchant), abandoned (by the payer), declined (by the payer's operator or for want of
 * funds); any other end, and a line written before lines kept their reason, failed.
 */
export function lineState(line: {
  status: 'pending' | 'success' | 'error';
  errorReason?: string | null | undefined;
}): LineState {
  if (line.status !== 'error') return line.status;
  switch (line.errorReason) {
    case 'expired':
    case 'cancelled':
    case 'abandoned':
    case 'declined':
      return line.errorReason;
    case 'insufficient_funds':
      return 'declined';
    default:
      return 'failed';
  }
}

/** The day counter's attribute for the hour of `createdAt` (UTC): `h00` to `h23`. */
export const hourAttribute = (createdAt: string) => `h${createdAt.slice(11, 13)}`;

/** What a line that succeeds adds to its store's day: money in, money given back, money sent out. */
export type MoneyMovement = 'collected' | 'refunded' | 'paidOut';

export const moneyMovements: readonly MoneyMovement[] = ['collected', 'refunded', 'paidOut'];

/**
 * The day total a line adds its amount to once it succeeds: a payment is collected (into an escrow
 * too: held, but the store's); a refund, and the payout that pays an escrow back to its payer, are
 * refunded; a transfer is paid out (to another store too: that store's line is a payment). An
 * escrow's release moves money between the store's own wallets, and SMS credit bought pays the
 * service, not a beneficiary: no total (the month's statement shows both).
 */
export function moneyMovedBy(
  record: Pick<TransactionRecord, 'type' | 'escrowId'>,
): MoneyMovement | undefined {
  switch (record.type) {
    case 'payment':
      return 'collected';
    case 'refund':
      return 'refunded';
    case 'transfer':
      return record.escrowId ? 'refunded' : 'paidOut';
    default:
      return undefined;
  }
}

/** What one write adds to a day counter. */
interface CounterDelta {
  storeId: string;
  day: string;
  /** The hour whose count grows (a new line), none when a line only settles. */
  hour?: string;
  lines: number;
  money: Partial<Record<MoneyMovement, { cents: number; count: number }>>;
}

function counterWrite(delta: CounterDelta): GuardedWrite {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':entity': 'transaction_counter' };
  const adds: string[] = [];
  if (delta.hour !== undefined) {
    names['#count'] = 'count';
    names['#hour'] = delta.hour;
    values[':one'] = delta.lines;
    adds.push('#count :one', '#hour :one');
  }
  for (const movement of moneyMovements) {
    const moved = delta.money[movement];
    if (!moved) continue;
    names[`#${movement}`] = movement;
    names[`#${movement}Count`] = `${movement}Count`;
    values[`:${movement}`] = moved.cents;
    values[`:${movement}Count`] = moved.count;
    adds.push(`#${movement} :${movement}`, `#${movement}Count :${movement}Count`);
  }
  return {
    write: {
      Update: {
        TableName: tableName(),
        Key: { pk: `TXCOUNT#${delta.storeId}`, sk: delta.day },
        UpdateExpression: `ADD ${adds.join(', ')} SET entity = :entity`,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      },
    },
  };
}

/** The money a line adds to its day once it has succeeded: none while pending or after an error. */
function moneyOf(record: TransactionRecord): CounterDelta['money'] {
  const movement = record.status === 'success' ? moneyMovedBy(record) : undefined;
  return movement ? { [movement]: { cents: record.amount.amount, count: 1 } } : {};
}

function recordPut(record: TransactionRecord): GuardedWrite {
  const day = transactionDay(record.createdAt);
  return {
    write: {
      Put: {
        TableName: tableName(),
        Item: {
          pk: `TXDAY#${record.businessId}#${day}`,
          sk: `${record.createdAt}#${record.id}`,
          entity: 'transaction',
          ...record,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
  };
}

const newLineDelta = (record: TransactionRecord): CounterDelta => ({
  storeId: record.storeId,
  day: transactionDay(record.createdAt),
  hour: hourAttribute(record.createdAt),
  lines: 1,
  money: moneyOf(record),
});

export function transactionRecordWrites(record: TransactionRecord): GuardedWrite[] {
  return [recordPut(record), counterWrite(newLineDelta(record))];
}

/**
 * Several lines written in one transaction (a transfer between two stores: the sender's and the
 * receiver's), which may share a counter (two lines of one store): a transaction cannot touch one
 * item twice, so counters of the same owner, day and hour are added to once, by the number of
 * lines and the sum of their money.
 */
export function transactionRecordsWrites(records: readonly TransactionRecord[]): GuardedWrite[] {
  const deltas = new Map<string, CounterDelta>();
  for (const record of records) {
    const delta = newLineDelta(record);
    const key = `${delta.storeId}|${delta.day}|${delta.hour}`;
    const seen = deltas.get(key);
    if (!seen) {
      deltas.set(key, delta);
      continue;
    }
    seen.lines += delta.lines;
    for (const movement of moneyMovements) {
      const moved = delta.money[movement];
      if (!moved) continue;
      const sum = seen.money[movement] ?? { cents: 0, count: 0 };
      seen.money[movement] = { cents: sum.cents + moved.cents, count: sum.count + moved.count };
    }
  }
  return [...records.map(recordPut), ...[...deltas.values()].map(counterWrite)];
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

/**
 * A pending line settled: its status, and on success its money added to the day counter of the
 * day it is listed under (its creation's, so a day's totals are the sums of that day's successful
 * lines in the list). Only inside the transaction whose `pending` condition makes the settlement
 * happen once (a duplicate callback changes nothing, the money is not added twice): 2 WCU, and
 * 2 more for the counter on success.
 */
export function transactionSettledWrites(
  record: Pick<TransactionRecord, 'id' | 'businessId' | 'storeId' | 'createdAt' | 'type' | 'escrowId'> & {
    amount: Pick<TransactionRecord['amount'], 'amount'>;
  },
  status: 'success' | 'error',
): GuardedWrite[] {
  const movement = status === 'success' ? moneyMovedBy(record) : undefined;
  return [
    transactionStatusWrite(record, status),
    ...(movement
      ? [
          counterWrite({
            storeId: record.storeId,
            day: transactionDay(record.createdAt),
            lines: 0,
            money: { [movement]: { cents: record.amount.amount, count: 1 } },
          }),
        ]
      : []),
  ];
}
