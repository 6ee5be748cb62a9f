import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '#shared/aws/dynamodb.ts';
import { journalOf, shareAttribute } from '#shared/data/ledger.ts';
import { heldAmount } from '#shared/domain/escrows.ts';
import {
  type AccountId,
  accounts,
  ledgerShardOf,
  parseWalletAccount,
  shardName,
} from '#shared/domain/ledger.ts';
import type { Reservation } from '#shared/domain/wallet.ts';

export interface AuditBreak {
  kind:
    | 'unbalanced_entry'
    | 'postings_do_not_sum_to_zero'
    | 'balance_differs_from_postings'
    | 'share_differs_from_postings'
    | 'available_differs_from_total_minus_blocked'
    | 'negative_available_balance'
    | 'blocked_differs_from_open_reservations'
    | 'postings_to_a_missing_account'
    | 'escrow_wallet_differs_from_held_escrows';
  subject: string;
  detail: string;
}

export interface AuditReport {
  ok: boolean;
  entries: number;
  postings: number;
  wallets: number;
  /** Non-wallet accounts (fees, clearing, ...), each the sum of its shares. */
  accounts: number;
  /** Items holding shares of non-wallet accounts: wallets and bucket shards. */
  shards: number;
  /** The balance of every non-wallet account: the sum of its shares over all shards. */
  accountBalances: Record<AccountId, number>;
  /** Reservations still open (transfers waiting for their provider). */
  openReservations: number;
  /** Escrows whose money is in their store's escrow wallet (held, or being refunded). */
  heldEscrows: number;
  /** The sum of every posting ever made: zero in balanced books. */
  sumOfAllPostings: number;
  breaks: AuditBreak[];
}

const sharePrefix = shareAttribute('');

/**
 * Recomputes the books from the journal: every entry balances, all postings sum to zero, every
 * wallet holds exactly the sum of its postings, every share of a sharded account on every shard
 * holds exactly the postings of the entries booked there (so an edited shard is found, not only
 * an edited total), each sharded account's balance (the sum of its shares) equals the sum of its
 * postings, every wallet's blocked balance is the sum of its open reservations (items carrying a
 * `reservation`: pending transfers), no wallet's available balance is negative, and every
 * store's escrow wallet holds exactly what its held (or refunding) escrows hold, the payment less
 * its fee: an escrow released or refunded without its money moving, or the reverse, is found.
 * Reads the whole table (a Scan): an operator's check, not a request path.
 */
export async function auditLedger(): Promise<AuditReport> {
  const postedTo = new Map<AccountId, number>();
  /** shard name -> account -> sum of the postings booked there, from the journal. */
  const expectedShares = new Map<string, Map<AccountId, number>>();
  const foundShares = new Map<string, Map<AccountId, number>>();
  const wallets = new Map<AccountId, { total: number; blocked: number; available: number | undefined }>();
  const reservedOn = new Map<AccountId, number>();
  const breaks: AuditBreak[] = [];
  let openReservations = 0;
  /** escrow wallet account -> what its held and refunding escrows hold. */
  const heldInEscrow = new Map<AccountId, number>();
  let heldEscrows = 0;
  let entries = 0;
  let postings = 0;
  let sumOfAllPostings = 0;
  const add = (
    shares: Map<string, Map<AccountId, number>>,
    shard: string,
    account: AccountId,
    amount: number,
  ) => {
    const accountsOfShard = shares.get(shard) ?? new Map<AccountId, number>();
    accountsOfShard.set(account, (accountsOfShard.get(account) ?? 0) + amount);
    shares.set(shard, accountsOfShard);
  };
  const readShares = (shard: string, item: Record<string, unknown>) => {
    foundShares.set(shard, foundShares.get(shard) ?? new Map());
    for (const [name, value] of Object.entries(item)) {
      if (name.startsWith(sharePrefix))
        add(foundShares, shard, name.slice(sharePrefix.length), Number(value));
    }
  };

  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await documentClient.send(
      new ScanCommand({
        TableName: tableName(),
        FilterExpression:
          'entity IN (:entry, :wallet, :shard, :escrow) OR attribute_exists(journal) OR attribute_exists(reservation)',
        ExpressionAttributeValues: {
          ':entry': 'journal_entry',
          ':wallet': 'wallet',
          ':shard': 'ledger_shard',
          ':escrow': 'escrow',
        },
        ExclusiveStartKey: startKey,
        ConsistentRead: true,
      }),
    );
    for (const item of page.Items ?? []) {
      if (item.entity === 'escrow') {
        if (item.status === 'held' || item.status === 'refunding') {
          heldEscrows++;
          const wallet = accounts.wallet(item.businessId as string, item.storeId as string, 'escrow');
          const held = heldAmount({ amount: Number(item.amount), fees: Number(item.fees) });
          heldInEscrow.set(wallet, (heldInEscrow.get(wallet) ?? 0) + held);
        }
        continue;
      }
      const reservation = item.reservation as Reservation | undefined;
      if (reservation) {
        if (reservation.state === 'open') {
          openReservations++;
          reservedOn.set(
            reservation.account,
            (reservedOn.get(reservation.account) ?? 0) + Number(reservation.amount),
          );
        }
        if (!item.journal && item.entity !== 'journal_entry') continue;
      }
      if (item.entity === 'journal_entry' || item.journal) {
        const entry = journalOf(item);
        entries++;
        let entrySum = 0;
        const shard = shardName(ledgerShardOf(entry));
        for (const posting of entry.postings) {
          postings++;
          entrySum += posting.amount;
          postedTo.set(posting.account, (postedTo.get(posting.account) ?? 0) + posting.amount);
          if (!parseWalletAccount(posting.account))
            add(expectedShares, shard, posting.account, posting.amount);
        }
        sumOfAllPostings += entrySum;
        if (entrySum !== 0)
          breaks.push({ kind: 'unbalanced_entry', subject: entry.id, detail: `postings sum to ${entrySum}` });
      } else if (item.entity === 'wallet') {
        const account = accounts.wallet(
          item.businessId as string,
          item.storeId as string,
          item.kind as 'operating',
        );
        wallets.set(account, {
          total: Number(item.total),
          blocked: Number(item.blocked),
          available: item.available === undefined ? undefined : Number(item.available),
        });
        readShares(account, item);
      } else {
        readShares(shardName({ bucket: Number(item.bucket) }), item);
      }
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey);

  if (sumOfAllPostings !== 0) {
    breaks.push({
      kind: 'postings_do_not_sum_to_zero',
      subject: 'ledger',
      detail: `all postings sum to ${sumOfAllPostings}`,
    });
  }
  for (const [account, balance] of wallets) {
    const posted = postedTo.get(account) ?? 0;
    if (balance.total !== posted) {
      breaks.push({
        kind: 'balance_differs_from_postings',
        subject: account,
        detail: `total ${balance.total}, postings ${posted}`,
      });
    }
    const reserved = reservedOn.get(account) ?? 0;
    if (balance.blocked !== reserved) {
      breaks.push({
        kind: 'blocked_differs_from_open_reservations',
        subject: account,
        detail: `blocked ${balance.blocked}, open reservations ${reserved}`,
      });
    }
    const available = balance.available ?? balance.total - balance.blocked;
    if (available !== balance.total - balance.blocked) {
      breaks.push({
        kind: 'available_differs_from_total_minus_blocked',
        subject: account,
        detail: `available ${available}, total ${balance.total}, blocked ${balance.blocked}`,
      });
    }
    if (available < 0)
      breaks.push({ kind: 'negative_available_balance', subject: account, detail: `available ${available}` });
  }
  for (const [account, balance] of wallets) {
    if (parseWalletAccount(account)?.kind !== 'escrow') continue;
    const held = heldInEscrow.get(account) ?? 0;
    if (balance.total !== held) {
      breaks.push({
        kind: 'escrow_wallet_differs_from_held_escrows',
        subject: account,
        detail: `total ${balance.total}, held by its escrows ${held}`,
      });
    }
  }
  for (const [account, held] of heldInEscrow) {
    if (!wallets.has(account)) {
      breaks.push({
        kind: 'escrow_wallet_differs_from_held_escrows',
        subject: account,
        detail: `escrows hold ${held} in a wallet that does not exist`,
      });
    }
  }
  const accountBalances: Record<AccountId, number> = {};
  for (const shard of new Set([...expectedShares.keys(), ...foundShares.keys()])) {
    const expected = expectedShares.get(shard) ?? new Map<AccountId, number>();
    const found = foundShares.get(shard) ?? new Map<AccountId, number>();
    for (const account of new Set([...expected.keys(), ...found.keys()])) {
      const share = found.get(account) ?? 0;
      accountBalances[account] = (accountBalances[account] ?? 0) + share;
      if (share !== (expected.get(account) ?? 0)) {
        breaks.push({
          kind: 'share_differs_from_postings',
          subject: `${account} on ${shard}`,
          detail: `share ${share}, postings booked there ${expected.get(account) ?? 0}`,
        });
      }
    }
  }
  for (const [account, balance] of Object.entries(accountBalances)) {
    const posted = postedTo.get(account) ?? 0;
    if (balance !== posted) {
      breaks.push({
        kind: 'balance_differs_from_postings',
        subject: account,
        detail: `sum of shares ${balance}, postings ${posted}`,
      });
    }
  }
  for (const [account, posted] of postedTo) {
    if (parseWalletAccount(account) && !wallets.has(account)) {
      breaks.push({
        kind: 'postings_to_a_missing_account',
        subject: account,
        detail: `${posted} posted to a wallet that does not exist`,
      });
    }
  }
  return {
    ok: breaks.length === 0,
    entries,
    postings,
    wallets: wallets.size,
    accounts: Object.keys(accountBalances).length,
    shards: [...foundShares.values()].filter((shares) => shares.size > 0).length,
    accountBalances,
    openReservations,
    heldEscrows,
    sumOfAllPostings,
    breaks,
  };
}
