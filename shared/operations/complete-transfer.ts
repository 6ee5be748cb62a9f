import { getBusiness } from '#shared/data/business.ts';
import { escrowTransitionWrite } from '#shared/data/escrow.ts';
import { ledgerWrites } from '#shared/data/ledger.ts';
import { type OutboxEvent, outboxWrite } from '#shared/data/outbox.ts';
import { type GuardedWrite, transactWrite } from '#shared/data/transact.ts';
import { transactionSettledWrites } from '#shared/data/transaction-record.ts';
import {
  findTransfer,
  pendingTransfers,
  referenceReleaseWrite,
  type Transfer,
  type TransferEscrow,
  transferOutcomeWrite,
} from '#shared/data/transfer.ts';
import { releaseWrite } from '#shared/data/wallet.ts';
import { identifierLabel } from '#shared/domain/contacts.ts';
import { executedAtFormat } from '#shared/domain/dates.ts';
import { accounts, escrowRefundPostings, payoutPostings } from '#shared/domain/ledger.ts';
import type { PayoutMethod } from '#shared/domain/payment-methods.ts';
import { InsufficientBalance } from '#shared/errors/ledger.ts';
import { TransferNoLongerPending } from '#shared/errors/transfers.ts';
import { logger } from '#shared/logger.ts';
import { count } from '#shared/metrics.ts';
import { escrowEvent } from '#shared/operations/escrow-events.ts';
import { dispatchPromptly } from '#shared/operations/webhook-dispatch.ts';
import type { PayoutOutcome, VerifiedPayoutCallback } from '#shared/providers/port.ts';
import { providerFor } from '#shared/providers/routing.ts';

export type TransferCompletionResult =
  | 'completed'
  | 'already_completed'
  | 'unknown_transfer'
  | 'wrong_payout';

/** The TRANSACTION_COMPLETED body of a transfer that reached `success` or `error`. */
export function transferCompletedEvent(
  transfer: Transfer,
  businessName: string,
  status: 'success' | 'error',
  at: Date,
): OutboxEvent {
  return {
    id: `TRANSACTION_COMPLETED:${transfer.transactionId}`,
    name: 'TRANSACTION_COMPLETED',
    businessId: transfer.businessId,
    createdAt: at.toISOString(),
    body: {
      id: transfer.transactionId,
      amount: { amount: transfer.amountCents, currency: transfer.currency },
      fees: { amount: transfer.feeCents, currency: transfer.currency },
      status,
      counterpartLabel: transfer.beneficiary,
      counterpartIdentifier: identifierLabel(transfer.beneficiaryIdentifier),
      paymentMethod: transfer.paymentMethod,
      transactionType: 'transfer',
      businessName,
      storeName: transfer.storeName,
      storeId: transfer.storeId,
      description: transfer.description,
      executedAt: executedAtFormat(at),
      transactionDetails: { id: transfer.id, reference: transfer.reference },
    },
  };
}

/**
 * Ends a pending payout, exactly once: on success the ledger entry takes amount + fee out of the
 * wallet against its reservation (provider payout clearing owed the amount, the service the fee);
 * on error the reservation goes back to the available balance. In the same transaction: the
 * transfer's status, its transaction-list line (and on success its day's paid-out or refunded
 * total) and the TRANSACTION_COMPLETED outbox event. A
 * second outcome (duplicate or late callback, a status query racing a callback) finds the transfer
 * no longer pending and changes nothing.
 */
export async function settleTransfer(
  transfer: Transfer,
  status: 'success' | 'error',
  errorReason: string | null,
  options: { releaseReference?: boolean } = {},
): Promise<OutboxEvent[]> {
  const reservation = transfer.reservation;
  if (!reservation) throw new Error(`transfer ${transfer.id} has no reservation to settle`);
  const business = await getBusiness(transfer.businessId);
  if (!business) throw new Error(`business ${transfer.businessId} of transfer ${transfer.id} is gone`);
  const now = new Date();
  const refunded = transfer.escrow;
  const wallet = {
    businessId: transfer.businessId,
    storeId: transfer.storeId,
    kind: refunded ? ('escrow' as const) : ('operating' as const),
  };
  const writes: GuardedWrite[] = [
    transferOutcomeWrite(
      transfer,
      { status, errorReason, updatedAt: now.toISOString() },
      () => new TransferNoLongerPending(),
    ),
  ];
  if (status === 'success') {
    writes.push(
      ...ledgerWrites(
        {
          id: `transfer:${transfer.id}`,
          kind: 'transfer',
          cause: `transfer ${transfer.id}`,
          createdAt: now.toISOString(),
          postings: refunded
            ? escrowRefundPostings({
                businessId: transfer.businessId,
                storeId: transfer.storeId,
                method: transfer.paymentMethod as PayoutMethod,
                amount: transfer.amountCents,
                fees: refunded.fees,
              })
            : payoutPostings({
                businessId: transfer.businessId,
                storeId: transfer.storeId,
                method: transfer.paymentMethod as PayoutMethod,
                amount: transfer.amountCents,
                fee: transfer.feeCents,
              }),
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
      status,
    ),
  );
  const event = transferCompletedEvent(transfer, business.name, status, now);
  writes.push(outboxWrite(event));
  const events = [event];
  if (refunded) {
    // The escrow ends refunded with its payout, or is held again when the payout failed.
    writes.push(
      escrowTransitionWrite(
        refunded.id,
        'refunding',
        status === 'success' ? 'refunded' : 'held',
        {},
        now.toISOString(),
      ),
    );
    if (status === 'success') events.push(refundedEvent(transfer, refunded, now.toISOString()));
    writes.push(...events.slice(1).map(outboxWrite));
  }
  if (options.releaseReference && transfer.referenceClaimed) writes.push(referenceReleaseWrite(transfer));
  try {
    await transactWrite(writes);
  } catch (error) {
    if (error instanceof TransferNoLongerPending) return [];
    throw error;
  }
  count('TransfersCompleted', { outcome: status, provider: transfer.paymentMethod });
  return events;
}

function refundedEvent(transfer: Transfer, escrow: TransferEscrow, occurredAt: string): OutboxEvent {
  return escrowEvent(
    'ESCROW_REFUNDED',
    {
      id: escrow.id,
      businessId: transfer.businessId,
      storeId: transfer.storeId,
      amount: transfer.amountCents,
      currency: transfer.currency,
      paymentRequestId: escrow.paymentRequestId,
      paymentLinkId: escrow.paymentLinkId,
      holdUntil: escrow.holdUntil,
    },
    'refunded',
    occurredAt,
  );
}

const outcomeStatus = (outcome: PayoutOutcome) =>
  outcome === 'success'
    ? { status: 'success' as const, errorReason: null }
    : { status: 'error' as const, errorReason: outcome };

/** A verified payout callback: the transfer it names ends as the provider says, once. */
export async function completeTransfer(
  callback: VerifiedPayoutCallback,
): Promise<{ result: TransferCompletionResult; events: OutboxEvent[] }> {
  const transfer = await findTransfer(callback.transferId, true);
  if (!transfer?.reservation) return { result: 'unknown_transfer', events: [] };
  // The callback may outrun the recording of the provider's reference; once recorded, it must match.
  if (transfer.providerReference && transfer.providerReference !== callback.providerReference) {
    logger.warn('payout callback for another payout than the transfer’s', {
      transferId: transfer.id,
      providerReference: callback.providerReference,
    });
    return { result: 'wrong_payout', events: [] };
  }
  if (transfer.status !== 'pending') return { result: 'already_completed', events: [] };
  const { status, errorReason } = outcomeStatus(callback.outcome);
  const events = await settleTransfer(transfer, status, errorReason);
  return { result: events.length > 0 ? 'completed' : 'already_completed', events };
}

/** A payout pending this long without a callback is asked about. */
export const transferStatusQueryAfterMs = 2 * 60_000;

export interface TransferSweepReport {
  found: number;
  completed: number;
  stillPending: number;
  failed: number;
}

/**
 * Asks the provider about payouts still pending after `transferStatusQueryAfterMs` (their callback
 * lost, or never sent) and ends those it has an answer for; one the provider never received ends
 * in error and gives its reservation back. Run on a schedule.
 */
export async function sweepPendingTransfers(now = new Date(), limit = 100): Promise<TransferSweepReport> {
  const transfers = await pendingTransfers(new Date(now.getTime() - transferStatusQueryAfterMs), limit);
  const report: TransferSweepReport = { found: transfers.length, completed: 0, stillPending: 0, failed: 0 };
  for (const transfer of transfers) {
    try {
      const answer = await providerFor(transfer.paymentMethod as PayoutMethod).payoutStatus(transfer.id);
      if (answer === 'pending') {
        report.stillPending++;
        continue;
      }
      const { status, errorReason } =
        answer === 'not_found'
          ? { status: 'error' as const, errorReason: 'payout_not_started' }
          : outcomeStatus(answer);
      const events = await settleTransfer(transfer, status, errorReason);
      await dispatchPromptly(events);
      report.completed++;
    } catch (error) {
      report.failed++;
      logger.error('pending transfer not settled', { transferId: transfer.id, error: error as Error });
    }
  }
  return report;
}
