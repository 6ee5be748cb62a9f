import type { Business } from '#shared/data/business.ts';
import { collectWrite } from '#shared/data/collection-ceiling.ts';
import { escrowDueWrite, escrowTransitionWrite } from '#shared/data/escrow.ts';
import { ledgerWrites } from '#shared/data/ledger.ts';
import { linkPaidWrite, releaseAttempt } from '#shared/data/payment-link.ts';
import type { CompletedTransaction, PaymentRequest } from '#shared/data/payment-request.ts';
import { type GuardedWrite, transactWrite } from '#shared/data/transact.ts';
import { transactionRecordWrites } from '#shared/data/transaction-record.ts';
import { collectionCeiling } from '#shared/domain/ceilings.ts';
import { paymentPostings } from '#shared/domain/ledger.ts';
import type { ProviderCode } from '#shared/domain/payment-methods.ts';

/** How a request ends: its new state and the write that moves it there, once. */
export interface PaymentOutcome {
  status: 'success' | 'error';
  errorReason: string | null;
  transaction: CompletedTransaction;
  payerPhone?: string | undefined;
  /** The provider the money went through (the request's own when none was started). */
  provider: ProviderCode;
  /** The request's write (a completion, or the end of an unpaid request), which guards the rest. */
  requestWrite: GuardedWrite;
  at: Date;
}

/**
 * Records how a request ended, in one transaction with the request's own write (which makes it
 * happen once): the transaction-list record and its day counter; for a success the ledger entry
 * (store credited amount − fee, fee account credited, provider clearing debited), the ceiling
 * count, a single-use link closed, an escrow held; for a failure an escrow cancelled and, after
 * the commit, a single-use link left open for the next payer. Its TRANSACTION_COMPLETED (or
 * ESCROW_HELD) leaves from the table's stream, which carries the request's change. The schedule
 * ending a held escrow's hold is the completion's to make (only it may pay), so the functions that
 * end requests unpaid carry no scheduler client.
 *
 * What a paid one writes (5 items), 10 WCU by the capacity bench: the request (2), the ceiling
 * month (2), the store's wallet, carrying the store's shares of the fee and clearing accounts (2),
 * the list record carrying the journal entry (2), the store's day counter (2), none of them in an
 * index. A failed one: the request, the record and the counter, 6 WCU.
 */
export async function recordOutcome(
  request: PaymentRequest,
  business: Business,
  outcome: PaymentOutcome,
): Promise<void> {
  const { status, transaction, payerPhone, provider, at } = outcome;
  const createdAt = at.toISOString();
  const paid = status === 'success';
  const writes: GuardedWrite[] = [outcome.requestWrite];
  if (paid && request.paymentLinkId) {
    writes.push(
      linkPaidWrite(
        request.businessId,
        request.paymentLinkId,
        request.id,
        request.paymentLinkSingleUse === true,
        request.escrow?.id,
      ),
    );
  }
  if (request.escrow && paid) {
    writes.push(
      escrowTransitionWrite(
        request.escrow.id,
        'pending',
        'held',
        { fees: transaction.fees.amount, payerPhone, provider },
        createdAt,
      ),
      escrowDueWrite(request.escrow.id, request.escrow.holdUntil),
    );
  } else if (request.escrow) {
    writes.push(escrowTransitionWrite(request.escrow.id, 'pending', 'cancelled', {}, createdAt));
  }
  const [record, ...counters] = transactionRecordWrites({
    id: transaction.id,
    businessId: request.businessId,
    storeId: request.storeId,
    type: 'payment',
    status,
    ...(status === 'error' && outcome.errorReason ? { errorReason: outcome.errorReason } : {}),
    amount: transaction.amount,
    fees: transaction.fees,
    currency: request.currency,
    paymentMethod: provider,
    counterpartLabel: transaction.counterpartLabel,
    counterpartIdentifier: transaction.counterpartIdentifier,
    description: transaction.description,
    reference: request.reference,
    createdAt,
    transactionDetails: {
      id: request.id,
      reference: request.reference,
      ...(request.paymentLinkId ? { paymentLinkId: request.paymentLinkId } : {}),
    },
    paymentRequestId: request.id,
    ...(request.escrow ? { escrowId: request.escrow.id } : {}),
  }) as [GuardedWrite, ...GuardedWrite[]];
  if (paid) {
    writes.push(
      collectWrite(
        request.businessId,
        request.amountCents,
        collectionCeiling(business.verificationLevel),
        at,
      ),
    );
    // The entry rides in the transaction record: the request's `pending` condition already makes
    // the completion happen once, so it needs no item of its own.
    writes.push(
      ...ledgerWrites(
        {
          id: `payment:${request.id}`,
          kind: 'payment',
          cause: `payment request ${request.id}`,
          createdAt,
          postings: paymentPostings({
            businessId: request.businessId,
            storeId: request.storeId,
            provider,
            amount: request.amountCents,
            fee: transaction.fees.amount,
            wallet: request.escrow ? 'escrow' : 'operating',
          }),
        },
        { within: record },
      ),
    );
  } else {
    writes.push(record);
  }
  writes.push(...counters);
  await transactWrite(writes);
  // A failed attempt leaves its single-use link open for the next payer.
  if (!paid && request.paymentLinkId && request.paymentLinkSingleUse) {
    await releaseAttempt(request.businessId, request.paymentLinkId, request.id);
  }
}
