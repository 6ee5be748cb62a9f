import { tableName } from '#shared/aws/dynamodb.ts';
import { queryAll } from '#shared/data/query.ts';
import type { GuardedWrite } from '#shared/data/transact.ts';
import type { JournalEntry } from '#shared/domain/ledger.ts';
import {
  deltaAttributes,
  type StatementDay,
  statementDayOf,
  storeDayDeltas,
} from '#shared/domain/statement.ts';

/**
 * A store's statement counters (issue 34, item 5): what the ledger's entries did to the store's
 * wallets each UTC day (shared/domain/statement.ts says how an entry is split), kept as
 * `st:<kind>:in|out|fee|n` and `st:net:<wallet>` attributes of the store's day counter,
 * pk = TXCOUNT#<storeId>, sk = <YYYY-MM-DD>, the item the transaction list counts its lines on
 * (shared/data/transaction-record.ts).
 *
 * Written by the ledger (`ledgerWrites`), in the entry's own transaction, so a counter moves
 * exactly when a wallet does, and once: the entry's condition (its own item, or the document
 * carrying it) refuses a replay, and the counter with it. An unconditional `ADD`, one per store
 * the entry touches (an entry posting to both wallets of a store adds to its counter once).
 *
 * Cost: the transaction that writes an entry usually updates the same item anyway for its
 * transaction-list line (a payment, a refund or transfer created and settled the same day):
 * `transactWrite` merges two unconditional updates of one item into one, so the counter costs no
 * extra write unit there (the item stays well under 1 KB: a day of every kind adds ~30 attributes
 * of ~20 bytes). An entry without a line that day (a sandbox credit, a transfer settled the day
 * after it was made) costs 2 WCU more per store.
 *
 * Read: a store's days from the first of a month to today, one Query (≤ ~1 KB an item), between
 * two strongly consistent reads of its wallets' totals (0.5 RCU each).
 */
const counterKey = (storeId: string, day: string) => ({ pk: `TXCOUNT#${storeId}`, sk: day });

export function statementCounterWrites(entry: JournalEntry): GuardedWrite[] {
  return storeDayDeltas(entry).map((delta) => {
    const names: Record<string, string> = {};
    const values: Record<string, unknown> = { ':entity': 'transaction_counter' };
    const adds = Object.entries(deltaAttributes(delta)).map(([attribute, amount], index) => {
      names[`#st${index}`] = attribute;
      values[`:st${index}`] = amount;
      return `#st${index} :st${index}`;
    });
    return {
      write: {
        Update: {
          TableName: tableName(),
          Key: counterKey(delta.storeId, delta.day),
          // `entity` as the transaction list's counter sets it: the two merge into one update.
          UpdateExpression: `ADD ${adds.join(', ')} SET entity = :entity`,
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
        },
      },
    };
  });
}

/**
 * A store's statement days from `firstDay` to `lastDay` (both included), oldest first; days when
 * nothing moved are left out. Strongly consistent: a statement is read against its wallets.
 */
export async function storeStatementDays(
  storeId: string,
  firstDay: string,
  lastDay: string,
): Promise<StatementDay[]> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :first AND :last',
    ExpressionAttributeValues: { ':pk': `TXCOUNT#${storeId}`, ':first': firstDay, ':last': lastDay },
    ConsistentRead: true,
  });
  return items.map((item) => statementDayOf(item.sk as string, item));
}

/** The total of a store's wallets (both kinds), read strongly consistent. */
export async function storeWalletsTotal(businessId: string, storeId: string): Promise<number> {
  const wallets = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': `BIZ#${businessId}`, ':prefix': `WALLET#${storeId}#` },
    ConsistentRead: true,
  });
  return wallets.reduce((sum, wallet) => sum + Number(wallet.total ?? 0), 0);
}
