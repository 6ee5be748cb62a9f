import { escrowTransitionWrite } from '#shared/data/escrow.ts';
import { ledgerWrites } from '#shared/data/ledger.ts';
import { payoutSettledWrite } from '#shared/data/payout.ts';
import { type GuardedWrite, transactWrite } from '#shared/data/transact.ts';
import { transactionSettledWrites } from '#shared/data/transaction-record.ts';
import {
  getTransfer,
  recordPayoutStarted,
  referenceReleaseWrite,
  type Transfer,
  transferOutcomeWrite,
} from '#shared/data/transfer.ts';
import { releaseWrite } from '#shared/data/wallet.ts';
import { accounts, escrowRefundPostings, payoutPostings } from '#shared/domain/ledger.ts';
import type { PayoutMethod } from '#shared/domain/payment-methods.ts';
import { InsufficientBalance } from '#shared/errors/ledger.ts';
import { TransferNoLongerPending } from '#shared/errors/transfers.ts';
import { count } from '#shared/metrics.ts';
import { providerFor } from '#shared/providers/routing.ts';
import { askPayout, type PayoutEnd, type PayoutSettler } from '#shared/settlement/payout-settler.ts';

/**
 * Ends a pending transfer's payout, exactly once: on success the ledger entry takes amount + fee
 * out of the wallet against its reservation (provider payout clearing owed the amount, the service
 * the fee); on error the reservation goes back to the available balance. In the same transaction:
 * the transfer's status, its transaction-list line (and on success its day's paid-out total), the
 * payout leaving the sweep's index, and for an escrow's refund the escrow, `refunded` (or `held`
 * again). Its events (TRANSACTION_COMPLETED, ESCROW_REFUNDED) leave from the table's stream. A
 * second outcome finds the transfer no longer pending and changes nothing.
 */
async function settleTransfer(
  transfer: Transfer,
  end: PayoutEnd,
  options: { releaseReference?: boolean } = {},
): Promise<boolean> {
  const reservation = transfer.reservation;
  if (!reservation) throw new Error(`transfer ${transfer.id} has no reservation to settle`);
  const now = new Date().toISOString();
  const refunded = transfer.escrow;
  const wallet = {
    businessId: transfer.businessId,
    storeId: transfer.storeId,
    kind: refunded ? ('escrow' as const) : ('operating' as const),
  };
  const paid = end.status === 'success';
  const writes: GuardedWrite[] = [
    transferOutcomeWrite(transfer, { ...end, updatedAt: now }, () => new TransferNoLongerPending()),
    payoutSettledWrite(transfer.id, now),
  ];
  if (paid) {
    const input = {
      businessId: transfer.businessId,
      storeId: transfer.storeId,
      method: transfer.paymentMethod as PayoutMethod,
      amount: transfer.amountCents,
    };
    writes.push(
      ...ledgerWrites(
        {
          id: `transfer:${transfer.id}`,
          kind: transfer.payoutAccountId ? 'withdrawal' : 'transfer',
          cause: `transfer ${transfer.id}`,
          createdAt: now,
          postings: refunded
            ? escrowRefundPostings({ ...input, fees: refunded.fees })
            : payoutPostings({ ...input, fee: transfer.feeCents }),
        },
        { settlesReservationOn: accounts.wallet(wallet.businessId, wallet.storeId, wallet.kind) },
      ),
    );
  } else {
    writes.push(releaseWrite(wallet, reservation.amount, () => new InsufficientBalance()));
  }
  writes.push(
    ...transactionSettledWrites(
      {
        ...transfer,
        id: transfer.transactionId,
        type: 'transfer',
        amount: { amount: transfer.amountCents },
        ...(refunded ? { escrowId: refunded.id } : {}),
      },
      end.status,
    ),
  );
  // The escrow ends refunded with its payout, or is held again when the payout failed.
  if (refunded)
    writes.push(escrowTransitionWrite(refunded.id, 'refunding', paid ? 'refunded' : 'held', {}, now));
  if (options.releaseReference && transfer.referenceClaimed) writes.push(referenceReleaseWrite(transfer));
  try {
    await transactWrite(writes);
  } catch (error) {
    if (error instanceof TransferNoLongerPending) return false;
    throw error;
  }
  count('TransfersCompleted', { outcome: end.status, provider: transfer.paymentMethod });
  return true;
}

/** A transfer's payout (an escrow's refund included): to a number, or to a bank account. */
export const transferPayouts: PayoutSettler<Transfer> = {
  kind: 'transfer',
  load: (payout) => getTransfer(payout.businessId, payout.id, true),
  awaiting: (transfer) => transfer.status === 'pending' && transfer.reservation !== undefined,
  providerReference: (transfer) => transfer.providerReference,
  settle: settleTransfer,
  ask(transfer) {
    const method = transfer.paymentMethod as PayoutMethod;
    const identifier = transfer.beneficiaryIdentifier;
    if (!transfer.callbackUrl)
      throw new Error(`transfer ${transfer.id} has no callback URL to ask again with`);
    return providerFor(method, { phone: 'number' in identifier ? identifier.number : undefined }).startPayout(
      {
        transferId: transfer.id,
        method,
        amountCents: transfer.amountCents,
        currency: transfer.currency,
        beneficiaryName: transfer.beneficiary,
        beneficiaryNumber: 'number' in identifier ? identifier.number : undefined,
        beneficiaryAccount: 'accountNumber' in identifier ? { ...identifier } : undefined,
        callbackUrl: transfer.callbackUrl,
      },
    );
  },
  recordAsked: recordPayoutStarted,
  status: (transfer) =>
    providerFor(transfer.paymentMethod as PayoutMethod, {
      phone: 'number' in transfer.beneficiaryIdentifier ? transfer.beneficiaryIdentifier.number : undefined,
    }).payoutStatus(transfer.id),
};

/**
 * Asks the provider to pay out a transfer recorded pending with its reservation (a transfer, or an
 * escrow's refund), and answers the transfer as that left it: ended already when the provider's
 * answer was final; a refusal ends it in error and is thrown.
 */
export async function startTransferPayout(transfer: Transfer): Promise<Transfer> {
  const { providerReference, end } = await askPayout(transferPayouts, transfer);
  const asked = { ...transfer, providerReference };
  return end ? ((await getTransfer(transfer.businessId, transfer.id, true)) ?? asked) : asked;
}
