import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '#shared/aws/dynamodb.ts';
import { payoutCreationWrite } from '#shared/data/payout.ts';
import type { GuardedWrite } from '#shared/data/transact.ts';
import { reservationOutcomeWrite } from '#shared/data/wallet.ts';
import type { BeneficiaryMethod, ContactIdentifier } from '#shared/domain/contacts.ts';
import type { PayoutMethod } from '#shared/domain/payment-methods.ts';
import type { Reservation } from '#shared/domain/wallet.ts';
import type { DomainError } from '#shared/errors/domain-error.ts';
import { TransferExistsWithReference } from '#shared/errors/transfers.ts';

/**
 * Transfer: money a store sends out, to a beneficiary through a provider (a payout: `pending`
 * with its amount + fee reserved on the wallet until the provider answers, then `success` or
 * `error`, once), or to another store of the business (`svc`: `success` at once).
 *
 * Keys:
 * - pk = BIZ#<businessId>, sk = TRANSFER#<id>: the transfer, read by id under the caller's business.
 *   It carries its wallet reservation (`reservation`), which the ledger audit sums per wallet.
 * - A payout through a provider has its payout (shared/data/payout.ts, `settles: transfer`): what a
 *   provider callback, which holds only the id, and the sweep find it by.
 * - pk = BIZ#<businessId>, sk = TRANSFERREF#<reference>: the claim of a reference the merchant gave.
 *
 * Access patterns and cost (items under 1 KB):
 * - get by id for the business: GetItem, 0.5 RCU; from a payout id: the payout and the transfer,
 *   1 RCU consistent each.
 * - create: 2-3 puts (transfer, payout, reference) inside the creation transaction, 2 WCU each,
 *   plus 1 for the payout's pending index.
 * - record the provider's reference: UpdateItem, 1 WCU.
 * - complete: an update inside the completion transaction (2 WCU), and the payout's (2 WCU, plus 1
 *   leaving the index).
 */
export type TransferStatus = 'pending' | 'success' | 'error';

/** What settling an escrow's refund needs of the escrow without reading it. */
export interface TransferEscrow {
  id: string;
  /** The fee the payment paid, given back to the payer with the rest. */
  fees: number;
  paymentRequestId: string;
  paymentLinkId: string | null;
  holdUntil: string;
}

export interface Transfer {
  id: string;
  businessId: string;
  storeId: string;
  storeName: string;
  contactId: string;
  amountCents: number;
  feeCents: number;
  currency: string;
  status: TransferStatus;
  errorReason: string | null;
  paymentMethod: BeneficiaryMethod;
  /**
   * The beneficiary's name (the receiving store's, for `svc`): answered as `beneficiaryName`, the
   * answer's `beneficiary` being whom it pays (shared/domain/contacts.ts, `beneficiaryLabel`).
   */
  beneficiary: string;
  beneficiaryIdentifier: ContactIdentifier;
  destinationStoreId?: string | undefined;
  description: string;
  reference: string;
  /** Whether `reference` was given (and so is claimed) rather than defaulted to the id. */
  referenceClaimed: boolean;
  /** The transaction-list line that reports it (and, for `svc`, the receiving store's line). */
  transactionId: string;
  receivingTransactionId?: string | undefined;
  providerReference?: string | undefined;
  reservation?: Reservation | undefined;
  /**
   * Where the provider reports the payout: the service's base URL the transfer was made on (absent
   * on a store-to-store transfer, and on payouts recorded before it was kept).
   */
  callbackUrl?: string | undefined;
  /** A refund of an escrow: paid out of its escrow wallet, which moves to `refunded` with it. */
  escrow?: TransferEscrow | undefined;
  /** A withdrawal: the business's own payout account it pays (shared/domain/payout-accounts.ts). */
  payoutAccountId?: string | undefined;
  createdAt: string;
  updatedAt: string;
}

export const transferKey = (businessId: string, id: string) => ({
  pk: `BIZ#${businessId}`,
  sk: `TRANSFER#${id}`,
});
const referenceKey = (businessId: string, reference: string) => ({
  pk: `BIZ#${businessId}`,
  sk: `TRANSFERREF#${reference}`,
});

/** The puts that record a new transfer, for the transaction that also moves or reserves its money. */
export function transferCreationWrites(transfer: Transfer): GuardedWrite[] {
  const table = tableName();
  const writes: GuardedWrite[] = [];
  if (transfer.referenceClaimed) {
    writes.push({
      write: {
        Put: {
          TableName: table,
          Item: {
            ...referenceKey(transfer.businessId, transfer.reference),
            entity: 'transfer_reference',
            transferId: transfer.id,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      onConditionFailed: () => new TransferExistsWithReference(transfer.reference),
    });
  }
  writes.push({
    write: {
      Put: {
        TableName: table,
        Item: { ...transferKey(transfer.businessId, transfer.id), entity: 'transfer', ...transfer },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
  });
  // A payout waits for its provider: it is found by its id from a callback or the sweep.
  if (transfer.status === 'pending') {
    writes.push(
      payoutCreationWrite({
        id: transfer.id,
        settles: 'transfer',
        businessId: transfer.businessId,
        method: transfer.paymentMethod as PayoutMethod,
        createdAt: transfer.createdAt,
      }),
    );
  }
  return writes;
}

/**
 * The write that ends a pending transfer, once: its status, and its reservation's state (posted
 * with the ledger entry, or released back to the wallet). Transfers recorded before payouts kept
 * their own pending index: it goes too.
 */
export function transferOutcomeWrite(
  transfer: Transfer,
  outcome: { status: 'success' | 'error'; errorReason: string | null; updatedAt: string },
  onNotPending: () => DomainError,
): GuardedWrite {
  return reservationOutcomeWrite(
    transferKey(transfer.businessId, transfer.id),
    outcome,
    onNotPending,
    ' REMOVE gsi1pk, gsi1sk',
  );
}

/** Frees a reference again, for a transfer the provider refused at once. */
export function referenceReleaseWrite(transfer: Transfer): GuardedWrite {
  return {
    write: {
      Delete: {
        TableName: tableName(),
        Key: referenceKey(transfer.businessId, transfer.reference),
        ConditionExpression: 'transferId = :id',
        ExpressionAttributeValues: { ':id': transfer.id },
      },
    },
  };
}

export async function recordPayoutStarted(transfer: Transfer, providerReference: string): Promise<void> {
  await documentClient.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: transferKey(transfer.businessId, transfer.id),
      UpdateExpression: 'SET providerReference = :ref',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':ref': providerReference },
    }),
  );
}

export async function getTransfer(businessId: string, id: string, consistent = false) {
  const { Item } = await documentClient.send(
    new GetCommand({ TableName: tableName(), Key: transferKey(businessId, id), ConsistentRead: consistent }),
  );
  return Item ? toTransfer(Item) : undefined;
}

export function toTransfer(item: Record<string, unknown>): Transfer {
  const { pk: _pk, sk: _sk, gsi1pk: _gpk, gsi1sk: _gsk, entity: _entity, ...rest } = item;
  const transfer = rest as unknown as Transfer;
  return { ...transfer, errorReason: transfer.errorReason ?? null };
}
