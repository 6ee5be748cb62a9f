import { tableName } from '#shared/aws/dynamodb.ts';
import { statementCounterWrites } from '#shared/data/statement-counter.ts';
import type { GuardedWrite } from '#shared/data/transact.ts';
import { settleReservationWrite, walletKey } from '#shared/data/wallet.ts';
import { type AccountId, type JournalEntry, planEntry, type WalletAccount } from '#shared/domain/ledger.ts';
import { AlreadyPosted, InsufficientBalance, ReservationMissing } from '#shared/errors/ledger.ts';

/**
 * The ledger writer: turns a journal entry into the writes of one transaction, so an entry, the
 * balance changes it causes and whatever reports it (transaction record, outbox event) land
 * together or not at all. Every movement of money is posted through `ledgerWrites`.
 *
 * Keys:
 * - pk = ENTRY#<entryId>, sk = ENTRY: the entry with its postings. Its id comes from the event
 *   that causes it, and it is put only if absent: a replayed event cannot post twice. An entry can
 *   instead ride in a document the same transaction puts anyway (`within`: the transaction-list
 *   record of a payment, whose own condition already makes the movement happen once), under the
 *   `journal` attribute, compacted (`carriedJournal`) so the document stays under 1 KB.
 * - wallets: their own items (shared/data/wallet.ts), updated in place, with a condition.
 * - every other account (fees, provider clearing, sandbox funding, and any added later) is
 *   sharded, never one item: the entry's postings to them are added, as `share#<account>`
 *   attributes, to the entry's shard (shared/domain/ledger.ts `ledgerShardOf`): its first wallet's
 *   item, which the entry updates anyway, or for an entry that moves no wallet, an item
 *   pk = LEDGERSHARD#<n>, sk = SHARD. So no item on the money path is shared across stores, and
 *   an account's balance is the sum of its shares (the audit adds them up).
 * - the statement counters of each store the entry moves (shared/data/statement-counter.ts): what
 *   the entry did to the store that UTC day, added to the store's day counter, which the
 *   transaction usually updates anyway for its transaction-list line (then merged into that update).
 *
 * Cost, items under 1 KB, 2 WCU per item inside a transaction: one per wallet posting (the shares
 * ride along), plus the entry's own item when it is not carried by another (2), plus a shard item
 * for an entry without a wallet (2), plus a store's day counter when its transaction does not
 * update it anyway (2 per store). A payment is 2 WCU of ledger writes (its wallet), the entry
 * riding in its transaction record and its counter in the line's; a sandbox credit 6.
 */
export const entryKey = (entryId: string) => ({ pk: `ENTRY#${entryId}`, sk: 'ENTRY' });
export const bucketShardKey = (bucket: number) => ({ pk: `LEDGERSHARD#${bucket}`, sk: 'SHARD' });
export const shareAttribute = (account: AccountId) => `share#${account}`;

export interface LedgerWriteOptions {
  /** A document the transaction puts anyway that carries the entry instead of its own item. */
  within?: GuardedWrite;
  /**
   * The wallet whose debit in this entry settles an earlier reservation of the same amount (a
   * transfer's): its blocked balance goes down with its total, and its available stays as it is.
   */
  settlesReservationOn?: AccountId;
}

/** `SET` clauses adding each non-wallet posting to its share on the shard item. */
function shareClauses(postings: { account: AccountId; amount: number }[]) {
  const names: Record<string, string> = {};
  const values: Record<string, number> = {};
  const clauses = postings.map((posting, i) => {
    names[`#share${i}`] = shareAttribute(posting.account);
    values[`:share${i}`] = posting.amount;
    return `#share${i} = if_not_exists(#share${i}, :zero) + :share${i}`;
  });
  return { clauses, names, values };
}

type Shares = ReturnType<typeof shareClauses>;

/** The same wallet update, also adding the entry's shares to the wallet item it writes anyway. */
function carryingShares(write: GuardedWrite, shares: Shares): GuardedWrite {
  const update = write.write.Update;
  if (!update || shares.clauses.length === 0) return write;
  return {
    ...write,
    write: {
      Update: {
        ...update,
        UpdateExpression: `${update.UpdateExpression}, ${shares.clauses.join(', ')}`,
        ExpressionAttributeNames: { ...update.ExpressionAttributeNames, ...shares.names },
        ExpressionAttributeValues: { ...update.ExpressionAttributeValues, ...shares.values, ':zero': 0 },
      },
    },
  };
}

function walletPostingWrite(wallet: WalletAccount, amount: number): GuardedWrite {
  const debit = amount < 0;
  return {
    write: {
      Update: {
        TableName: tableName(),
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
          ':amount': amount,
          ':zero': 0,
          ...(debit ? { ':needed': -amount } : {}),
        },
      },
    },
    onConditionFailed: () => new InsufficientBalance(),
  };
}

export function ledgerWrites(entry: JournalEntry, options: LedgerWriteOptions = {}): GuardedWrite[] {
  const { shard, wallets, shares: sharePostings } = planEntry(entry);
  const table = tableName();
  const shares = shareClauses(sharePostings);
  const writes: GuardedWrite[] = [entryWrite(entry, options.within)];
  for (const posting of wallets) {
    const write =
      posting.account === options.settlesReservationOn && posting.amount < 0
        ? settleReservationWrite(
            posting.wallet,
            -posting.amount,
            () => new ReservationMissing(posting.account),
          )
        : walletPostingWrite(posting.wallet, posting.amount);
    writes.push(posting.carriesShares ? carryingShares(write, shares) : write);
  }
  if ('bucket' in shard && shares.clauses.length > 0) {
    writes.push({
      write: {
        Update: {
          TableName: table,
          Key: bucketShardKey(shard.bucket),
          UpdateExpression: `SET ${[...shares.clauses, 'entity = :entity', '#bucket = :bucket'].join(', ')}`,
          ExpressionAttributeNames: { ...shares.names, '#bucket': 'bucket' },
          ExpressionAttributeValues: {
            ...shares.values,
            ':zero': 0,
            ':entity': 'ledger_shard',
            ':bucket': shard.bucket,
          },
        },
      },
    });
  }
  writes.push(...statementCounterWrites(entry));
  return writes;
}

/** The entry on its own item, put once; or carried by a document the transaction puts anyway. */
function entryWrite(entry: JournalEntry, within: GuardedWrite | undefined): GuardedWrite {
  if (!within) {
    return {
      write: {
        Put: {
          TableName: tableName(),
          Item: { ...entryKey(entry.id), entity: 'journal_entry', ...entry },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      onConditionFailed: () => new AlreadyPosted(entry.id),
    };
  }
  const put = within.write.Put;
  if (!put?.ConditionExpression) throw new Error('a journal entry rides only in a conditional put');
  return {
    ...within,
    write: { ...within.write, Put: { ...put, Item: { ...put.Item, journal: carriedJournal(entry) } } },
  };
}

/**
 * An entry as a document carries it: the postings as one map from account to amount, without the
 * cause and the date the document already holds. `journalOf` reads it back.
 */
export interface CarriedJournal {
  id: string;
  kind: JournalEntry['kind'];
  postings: Record<AccountId, number>;
}

const carriedJournal = (entry: JournalEntry): CarriedJournal => ({
  id: entry.id,
  kind: entry.kind,
  postings: Object.fromEntries(entry.postings.map((posting) => [posting.account, posting.amount])),
});

/** The entry of a journal item, or of a document carrying one. */
export function journalOf(item: Record<string, unknown>): JournalEntry {
  const carried = item.journal as CarriedJournal | undefined;
  if (!carried) return item as unknown as JournalEntry;
  return {
    id: carried.id,
    kind: carried.kind,
    cause: `${item.entity} ${item.id}`,
    createdAt: item.createdAt as string,
    postings: Object.entries(carried.postings).map(([account, amount]) => ({
      account,
      amount: Number(amount),
    })),
  };
}
