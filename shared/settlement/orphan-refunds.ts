import { ledgerWrites } from '#shared/data/ledger.ts';
import {
  getOrphanCollection,
  type OrphanCollection,
  orphanCreationWrite,
  orphanIdOf,
  orphanOutcomeWrite,
  recordRefundPayoutStarted,
} from '#shared/data/orphan-collection.ts';
import { orphanCollectionCheck, type PaymentRequest } from '#shared/data/payment-request.ts';
import { payoutCreationWrite, payoutSettledWrite } from '#shared/data/payout.ts';
import { transactWrite } from '#shared/data/transact.ts';
import { orphanCollectionPostings, orphanRefundPostings } from '#shared/domain/ledger.ts';
import {
  CollectionBecameCurrent,
  OrphanCollectionAlreadyRecorded,
  OrphanRefundEnded,
} from '#shared/errors/payment-requests.ts';
import { ProviderRefused } from '#shared/errors/providers.ts';
import { logger } from '#shared/logger.ts';
import { count } from '#shared/metrics.ts';
import type { VerifiedCallback } from '#shared/providers/port.ts';
import { providerFor } from '#shared/providers/routing.ts';
import { askPayout, type PayoutEnd, type PayoutSettler } from '#shared/settlement/payout-settler.ts';

/** The service's base URL the request was made on: its hosted page is `<base>/payment/<id>`. */
const baseUrlOf = (request: PaymentRequest) => request.redirectUrl.replace(/\/payment\/[^/]*$/, '');

/**
 * A provider reports as paid a collection of `request` that did not complete it: the money came in
 * and is the payer's. Records it once (whatever the number and order of the reports) in one
 * transaction with its ledger entry (the provider owes the amount, the service owes it to the
 * payer) and its payout, then asks the provider to pay it back; its COLLECTION_REFUND events leave
 * from the table's stream. Answers whether this report recorded it.
 */
export async function recordOrphanCollection(
  request: PaymentRequest,
  callback: VerifiedCallback,
  /** `superseded`: another collection is the request's; `refused`: this one is, and ended it `error`. */
  collection: 'superseded' | 'refused' = 'superseded',
): Promise<boolean> {
  const now = new Date().toISOString();
  const orphan: OrphanCollection = {
    id: orphanIdOf(callback.provider, callback.providerReference),
    businessId: request.businessId,
    storeId: request.storeId,
    paymentRequestId: request.id,
    reference: request.reference,
    provider: callback.provider,
    providerReference: callback.providerReference,
    amountCents: request.amountCents,
    currency: request.currency,
    payerPhone: callback.payerPhone ?? request.payerPhone,
    payoutCallbackUrl: `${baseUrlOf(request)}/provider_callbacks/${callback.provider}/payouts`,
    status: 'refunding',
    errorReason: null,
    createdAt: now,
    updatedAt: now,
  };
  try {
    await transactWrite([
      orphanCreationWrite(orphan, () => new OrphanCollectionAlreadyRecorded()),
      orphanCollectionCheck(
        request,
        orphan.providerReference,
        collection,
        () => new CollectionBecameCurrent(),
      ),
      ...ledgerWrites({
        id: `orphan:${orphan.id}`,
        kind: 'refund',
        cause: `collection ${orphan.providerReference} of payment request ${request.id}, which it did not complete`,
        createdAt: orphan.createdAt,
        postings: orphanCollectionPostings({ provider: orphan.provider, amount: orphan.amountCents }),
      }),
      payoutCreationWrite({
        id: orphan.id,
        settles: 'orphanRefund',
        businessId: orphan.businessId,
        method: orphan.provider,
        createdAt: now,
      }),
    ]);
  } catch (error) {
    // Recorded by an earlier report, whose payout the sweep asks for if that report stopped first.
    if (error instanceof OrphanCollectionAlreadyRecorded) return false;
    throw error;
  }
  logger.warn('orphan collection: refunding the payer', {
    orphanId: orphan.id,
    paymentRequestId: request.id,
    providerReference: orphan.providerReference,
  });
  count('OrphanCollections', { provider: orphan.provider });
  await refundOrphan(orphan);
  return true;
}

/**
 * Asks the provider to pay the orphan back to the payer. Without a number to pay, or refused, it
 * ends `refund_failed`, the money owed to the payer, for an operator; anything else leaves it to
 * the sweep.
 */
async function refundOrphan(orphan: OrphanCollection): Promise<void> {
  try {
    await askPayout(orphanRefunds, orphan);
  } catch (error) {
    if (error instanceof ProviderRefused) return;
    logger.error('orphan refund not started; the sweep will ask again', {
      orphanId: orphan.id,
      error: error as Error,
    });
  }
}

/**
 * Ends a refund, once: paid (the ledger moves the debt to the payer onto the provider that paid
 * it) or failed (the money stays owed to the payer, for an operator).
 */
async function settleOrphanRefund(orphan: OrphanCollection, end: PayoutEnd): Promise<boolean> {
  const now = new Date().toISOString();
  const status = end.status === 'success' ? 'refunded' : 'refund_failed';
  try {
    await transactWrite([
      orphanOutcomeWrite(
        orphan,
        { status, errorReason: end.errorReason, updatedAt: now },
        () => new OrphanRefundEnded(),
      ),
      payoutSettledWrite(orphan.id, now),
      ...(status === 'refunded'
        ? ledgerWrites({
            id: `orphan-refund:${orphan.id}`,
            kind: 'refund',
            cause: `refund of orphan collection ${orphan.id}`,
            createdAt: now,
            postings: orphanRefundPostings({ method: orphan.provider, amount: orphan.amountCents }),
          })
        : []),
    ]);
  } catch (error) {
    if (error instanceof OrphanRefundEnded) return false;
    throw error;
  }
  count('OrphanRefunds', { outcome: status, provider: orphan.provider });
  return true;
}

/** An orphan collection's refund: a payout to the payer's number through the provider that collected. */
export const orphanRefunds: PayoutSettler<OrphanCollection> = {
  kind: 'orphanRefund',
  load: (payout) => getOrphanCollection(payout.id),
  awaiting: (orphan) => orphan.status === 'refunding',
  providerReference: (orphan) => orphan.payoutReference,
  settle: settleOrphanRefund,
  unaskable: (orphan) => (orphan.payerPhone ? undefined : { status: 'error', errorReason: 'payer_unknown' }),
  ask(orphan) {
    return providerFor(orphan.provider, { phone: orphan.payerPhone }).startPayout({
      transferId: orphan.id,
      method: orphan.provider,
      amountCents: orphan.amountCents,
      currency: orphan.currency,
      beneficiaryName: orphan.payerPhone as string,
      beneficiaryNumber: orphan.payerPhone,
      callbackUrl: orphan.payoutCallbackUrl,
    });
  },
  recordAsked: (orphan, reference) => recordRefundPayoutStarted(orphan.id, reference),
  status: (orphan) => providerFor(orphan.provider, { phone: orphan.payerPhone }).payoutStatus(orphan.id),
};
