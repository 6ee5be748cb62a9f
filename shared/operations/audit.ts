import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '#shared/aws/dynamodb.ts';
import { type AccountId, accounts, type JournalEntry, parseWalletAccount } from '#shared/domain/ledger.ts';
import type { Reservation } from '#shared/domain/wallet.ts';

export interface AuditBreak {
  kind:
    | 'unbalanced_entry'
    | 'postings_do_not_sum_to_zero'
    | 'balance_differs_from_postings'
    | 'available_differs_from_total_minus_blocked'
    | 'negative_available_balance'
    | 'blocked_differs_from_open_reservations'
    | 'postings_to_a_missing_account';
  subject: string;
  detail: string;
}

export interface AuditReport {
  ok: boolean;
  entries: number;
  postings: number;
  wallets: number;
  accounts: number;
  /** Reservations still open (transfers waiting for their provider). */
  openReservations: number;
  /** The sum of every posting ever made: zero in balanced books. */
  sumOfAllPostings: number;
  breaks: AuditBreak[];
}

/**
 * Recomputes the books from the journal: every entry balances, all postings sum to zero, every
 * wallet and account holds exactly the sum of its postings, every wallet's blocked balance is the
 * sum of its open reservations (items carrying a `reservation`: pending transfers), and no
 * wallet's available balance is negative. Reads the whole table (a Scan): an operator's check, not
 * a request path.
 */
export async function auditLedger(): Promise<AuditReport> {
  const postedTo = new Map<AccountId, number>();
  const balances = new Map<
    AccountId,
    { total: number; blocked: number; available: number | undefined; wallet: boolean }
  >();
  const reservedOn = new Map<AccountId, number>();
  const breaks: AuditBreak[] = [];
  let openReservations = 0;
  let entries = 0;
  let postings = 0;
  let sumOfAllPostings = 0;

  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await documentClient.send(
      new ScanCommand({
        TableName: tableName(),
        FilterExpression: 'entity IN (:entry, :wallet, :account) OR attribute_exists(reservation)',
        ExpressionAttributeValues: { ':entry': 'journal_entry', ':wallet': 'wallet', ':account': 'account' },
        ExclusiveStartKey: startKey,
        ConsistentRead: true,
      }),
    );
    for (const item of page.Items ?? []) {
      const reservation = item.reservation as Reservation | undefined;
      if (reservation) {
        if (reservation.state === 'open') {
          openReservations++;
          reservedOn.set(
            reservation.account,
            (reservedOn.get(reservation.account) ?? 0) + Number(reservation.amount),
          );
        }
        continue;
      }
      if (item.entity === 'journal_entry') {
        const entry = item as unknown as JournalEntry;
        entries++;
        let entrySum = 0;
        for (const posting of entry.postings) {
          postings++;
          entrySum += posting.amount;
          postedTo.set(posting.account, (postedTo.get(posting.account) ?? 0) + posting.amount);
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
        balances.set(account, {
          total: Number(item.total),
          blocked: Number(item.blocked),
          available: item.available === undefined ? undefined : Number(item.available),
          wallet: true,
        });
      } else {
        balances.set(item.accountId as string, {
          total: Number(item.total),
          blocked: 0,
          available: undefined,
          wallet: false,
        });
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
  for (const [account, balance] of balances) {
    const posted = postedTo.get(account) ?? 0;
    if (balance.total !== posted) {
      breaks.push({
        kind: 'balance_differs_from_postings',
        subject: account,
        detail: `total ${balance.total}, postings ${posted}`,
      });
    }
    if (!balance.wallet) continue;
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
  for (const [account, posted] of postedTo) {
    if (!balances.has(account)) {
      const wallet = parseWalletAccount(account);
      breaks.push({
        kind: 'postings_to_a_missing_account',
        subject: account,
        detail: `${posted} posted to ${wallet ? 'a wallet' : 'an account'} that does not exist`,
      });
    }
  }
  const walletCount = [...balances.values()].filter((b) => b.wallet).length;
  return {
    ok: breaks.length === 0,
    entries,
    postings,
    wallets: walletCount,
    accounts: balances.size - walletCount,
    openReservations,
    sumOfAllPostings,
    breaks,
  };
}
