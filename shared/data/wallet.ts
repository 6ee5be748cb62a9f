import { tableName } from '#shared/aws/dynamodb.ts';
import { queryPrefix } from '#shared/data/query.ts';
import type { GuardedWrite } from '#shared/data/transact.ts';
import type { Cents } from '#shared/domain/money.ts';
import type { WalletBalance, WalletKind } from '#shared/domain/wallet.ts';
import type { DomainError } from '#shared/errors/domain-error.ts';

/**
 * Wallet: one per store and kind, holding `total` and `blocked` in cents, and `available`
 * (total − blocked) kept beside them in the same updates, because a DynamoDB condition cannot do
 * arithmetic: "available >= amount" is how a debit is refused rather than overdrawing. Balances
 * change only through ledger entries (shared/data/ledger.ts), never directly; a new wallet starts
 * at zero.
 *
 * Key: pk = BIZ#<businessId>, sk = WALLET#<storeId>#<kind>. Under the business partition, so a
 * store of another business has no wallets here: its balance is "not found".
 *
 * Access patterns and cost:
 * - the wallets of one store (store balance): Query pk, begins_with(sk, "WALLET#<storeId>#"),
 *   eventually consistent, 2 items of ~150 bytes: 0.5 RCU.
 * - created with the store (see store.ts).
 * - reserve for a transfer, release a reservation, or settle one with its ledger entry: one
 *   conditional update each, inside the transfer's transaction (2 WCU there).
 */
export interface Wallet extends WalletBalance {
  businessId: string;
  storeId: string;
  kind: WalletKind;
  currency: string;
  available: number;
}

export const walletKey = (businessId: string, storeId: string, kind: WalletKind) => ({
  pk: `BIZ#${businessId}`,
  sk: `WALLET#${storeId}#${kind}`,
});

export function walletItem(input: {
  businessId: string;
  storeId: string;
  kind: WalletKind;
  currency: string;
}) {
  const wallet: Wallet = { ...input, total: 0, blocked: 0, available: 0 };
  return { ...walletKey(input.businessId, input.storeId, input.kind), entity: 'wallet', ...wallet };
}

export async function listStoreWallets(businessId: string, storeId: string): Promise<Wallet[]> {
  const items = await queryPrefix(`BIZ#${businessId}`, `WALLET#${storeId}#`);
  return items.map((item) => ({
    businessId: item.businessId as string,
    storeId: item.storeId as string,
    kind: item.kind as WalletKind,
    currency: item.currency as string,
    total: Number(item.total),
    blocked: Number(item.blocked),
    available: Number(item.available ?? Number(item.total) - Number(item.blocked)),
  }));
}

type WalletRef = { businessId: string; storeId: string; kind: WalletKind };

/**
 * Sets `amount` aside for an outgoing transfer: blocked up, available down, total unchanged; only
 * while the available balance covers it, so two transfers can never spend the same money.
 */
export function reserveWrite(wallet: WalletRef, amount: Cents, onShort: () => DomainError): GuardedWrite {
  return {
    write: {
      Update: {
        TableName: tableName(),
        Key: walletKey(wallet.businessId, wallet.storeId, wallet.kind),
        UpdateExpression: 'SET blocked = blocked + :amount, available = available - :amount',
        ConditionExpression: 'attribute_exists(pk) AND available >= :amount',
        ExpressionAttributeValues: { ':amount': amount },
      },
    },
    onConditionFailed: onShort,
  };
}

/** Gives a reservation back: blocked down, available up. Paired with the transfer's own guard. */
export function releaseWrite(wallet: WalletRef, amount: Cents, onMissing: () => DomainError): GuardedWrite {
  return {
    write: {
      Update: {
        TableName: tableName(),
        Key: walletKey(wallet.businessId, wallet.storeId, wallet.kind),
        UpdateExpression: 'SET blocked = blocked - :amount, available = available + :amount',
        ConditionExpression: 'attribute_exists(pk) AND blocked >= :amount',
        ExpressionAttributeValues: { ':amount': amount },
      },
    },
    onConditionFailed: onMissing,
  };
}

/**
 * A debit posted against a reservation: total and blocked both down by it, available unchanged
 * (it already left available when the reservation was made). The ledger writer uses it for the
 * wallet posting of an entry that settles a reservation.
 */
export function settleReservationWrite(
  wallet: WalletRef,
  amount: Cents,
  onMissing: () => DomainError,
): GuardedWrite {
  return {
    write: {
      Update: {
        TableName: tableName(),
        Key: walletKey(wallet.businessId, wallet.storeId, wallet.kind),
        UpdateExpression: 'SET #total = #total - :amount, blocked = blocked - :amount',
        ConditionExpression: 'attribute_exists(pk) AND blocked >= :amount',
        ExpressionAttributeNames: { '#total': 'total' },
        ExpressionAttributeValues: { ':amount': amount },
      },
    },
    onConditionFailed: onMissing,
  };
}

/**
 * The update that ends a pending item holding a wallet reservation (a transfer, a refund), once:
 * its status and errorReason, and its reservation's state (posted with the ledger entry, or
 * released back to the wallet), only while it is pending and the reservation open. `also` adds
 * clauses of the item's own (a transfer leaves its pending index).
 */
export function reservationOutcomeWrite(
  key: { pk: string; sk: string },
  outcome: { status: 'success' | 'error'; errorReason: string | null; updatedAt: string },
  onNotPending: () => DomainError,
  also = '',
): GuardedWrite {
  return {
    write: {
      Update: {
        TableName: tableName(),
        Key: key,
        UpdateExpression: `SET #status = :status, errorReason = :reason, updatedAt = :now, reservation.#state = :reservation${also}`,
        ConditionExpression: '#status = :pending AND reservation.#state = :open',
        ExpressionAttributeNames: { '#status': 'status', '#state': 'state' },
        ExpressionAttributeValues: {
          ':status': outcome.status,
          ':reason': outcome.errorReason,
          ':now': outcome.updatedAt,
          ':reservation': outcome.status === 'success' ? 'posted' : 'released',
          ':pending': 'pending',
          ':open': 'open',
        },
      },
    },
    onConditionFailed: onNotPending,
  };
}
