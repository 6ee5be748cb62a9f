import { tableName } from '#shared/aws/dynamodb.ts';
import type { GuardedWrite } from '#shared/data/transact.ts';
import { settleReservationWrite, walletKey } from '#shared/data/wallet.ts';
import { Conflict, DomainError } from '#shared/domain/errors.ts';
import {
  type AccountId,
  assertBalanced,
  type JournalEntry,
  parseWalletAccount,
} from '#shared/domain/ledger.ts';

/**
 * The ledger writer: turns a journal entry into the writes of one transaction, so an entry, the
 * balance changes it causes and whatever reports it (transaction record, outbox event) land
 * together or not at all.
 *
 * Keys:
 * - pk = ENTRY#<entryId>, sk = ENTRY: the entry with its postings. Its id comes from the event
 *   that causes it, and it is put only if absent: a replayed event cannot post twice.
 * - wallets: their own items (shared/data/wallet.ts), updated in place.
 * - other accounts: pk = ACCOUNT#<accountId>, sk = ACCOUNT, created by their first posting.
 *
 * Cost: one write per posting plus one for the entry, each 2 WCU inside a transaction (items are
 * under 1 KB): a payment (3 postings) is 8 WCU of ledger writes.
 */
export class AlreadyPosted extends Conflict {
  constructor(entryId: string) {
    super(`Journal entry ${entryId} is already posted`);
  }
}

export class InsufficientBalance extends DomainError {
  constructor() {
    super('insufficient_balance', 'The available balance is insufficient for this operation');
  }
}

export const entryKey = (entryId: string) => ({ pk: `ENTRY#${entryId}`, sk: 'ENTRY' });
export const accountKey = (account: AccountId) => ({ pk: `ACCOUNT#${account}`, sk: 'ACCOUNT' });

export class ReservationMissing extends Conflict {
  constructor(account: AccountId) {
    super(`No reservation on ${account} covers this entry`);
  }
}

export interface LedgerWriteOptions {
  /**
   * The wallet whose debit in this entry settles an earlier reservation of the same amount (a
   * transfer's): its blocked balance goes down with its total, and its available stays as it is.
   */
  settlesReservationOn?: AccountId;
}

export function ledgerWrites(entry: JournalEntry, options: LedgerWriteOptions = {}): GuardedWrite[] {
  assertBalanced(entry.postings);
  const table = tableName();
  const writes: GuardedWrite[] = [
    {
      write: {
        Put: {
          TableName: table,
          Item: { ...entryKey(entry.id), entity: 'journal_entry', ...entry },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      onConditionFailed: () => new AlreadyPosted(entry.id),
    },
  ];
  for (const posting of entry.postings) {
    const wallet = parseWalletAccount(posting.account);
    if (wallet && posting.account === options.settlesReservationOn && posting.amount < 0) {
      writes.push(
        settleReservationWrite(wallet, -posting.amount, () => new ReservationMissing(posting.account)),
      );
    } else if (wallet) {
      const debit = posting.amount < 0;
      writes.push({
        write: {
          Update: {
            TableName: table,
            Key: walletKey(wallet.businessId, wallet.storeId, wallet.kind),
            UpdateExpression:
              'SET #total = #total + :amount, #available = if_not_exists(#available, :zero) + :amount',
            // The wallet must exist (a posting never creates one), and a debit must leave the
            // available balance at zero or more.
            ConditionExpression: debit
              ? 'attribute_exists(pk) AND #available >= :needed'
              : 'attribute_exists(pk)',
            ExpressionAttributeNames: { '#total': 'total', '#available': 'available' },
            ExpressionAttributeValues: {
              ':amount': posting.amount,
              ':zero': 0,
              ...(debit ? { ':needed': -posting.amount } : {}),
            },
          },
        },
        onConditionFailed: () => new InsufficientBalance(),
      });
    } else {
      writes.push({
        write: {
          Update: {
            TableName: table,
            Key: accountKey(posting.account),
            UpdateExpression: 'ADD #total :amount SET entity = :entity, accountId = :account',
            ExpressionAttributeNames: { '#total': 'total' },
            ExpressionAttributeValues: {
              ':amount': posting.amount,
              ':entity': 'account',
              ':account': posting.account,
            },
          },
        },
      });
    }
  }
  return writes;
}
