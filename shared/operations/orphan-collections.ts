import type { CollectionRefundEvent } from '#shared/api/webhook-events.ts';
import { ledgerWrites } from '#shared/data/ledger.ts';
import {
  getOrphanCollection,
  listOrphanCollections,
  type OrphanCollection,
  orphanCreationWrite,
  orphanIdOf,
  orphanOutcomeWrite,
  recordRefundPayoutStarted,
} from '#shared/data/orphan-collection.ts';
import { type OutboxEvent, outboxWrite } from '#shared/data/outbox.ts';
import { orphanCollectionCheck, type PaymentRequest } from '#shared/data/payment-request.ts';
import { type GuardedWrite, transactWrite } from '#shared/data/transact.ts';
import { executedAtFormat } from '#shared/domain/dates.ts';
import { orphanCollectionPostings, orphanRefundPostings } from '#shared/domain/ledger.ts';
import {
  CollectionBecameCurrent,
  OrphanCollectionAlreadyRecorded,
  OrphanRefundEnded,
} from '#shared/errors/payment-requests.ts';
import { ProviderRefused } from '#shared/errors/providers.ts';
import { logger } from '#shared/logger.ts';
import { count } from '#shared/metrics.ts';
import type { PayoutOutcome, VerifiedCallback, VerifiedPayoutCallback } from '#shared/providers/port.ts';
import { providerFor } from '#shared/providers/routing.ts';

function refundEvent(orphan: OrphanCollection, at: Date): OutboxEvent {
  return {
    id: `COLLECTION_REFUND:${orphan.id}:${orphan.status}`,
    name: 'COLLECTION_REFUND',
    businessId: orphan.businessId,
    createdAt: at.toISOString(),
    body: {
      id: orphan.id,
      status: orphan.status,
      amount: { amount: orphan.amountCents, currency: orphan.currency },
      paymentMethod: orphan.provider,
      ...(orphan.payerPhone ? { payerPhone: orphan.payerPhone } : {}),
      storeId: orphan.storeId,
      transactionDetails: { id: orphan.paymentRequestId, reference: orphan.reference },
      executedAt: executedAtFormat(at),
    } satisfies CollectionRefundEvent,
  };
}

/** The service's base URL the request was made on: its hosted page is `<base>/payment/<id>`. */
const baseUrlOf = (request: PaymentRequest) => request.redirectUrl.replace(/\/payment\/[^/]*$/, '');

/**
 * A provider reports as paid a collection of `request` that did not complete it: the money came in
 * and is the payer's. Records it once (whatever the number and order of the reports) in one
 * transaction with its ledger entry (the provider owes the amount, the service owes it to the
 * payer) and its `refunding` event, then asks the provider to pay it back. The payout's outcome
 * ends it through `completeOrphanRefund` (its callback) or `sweepOrphanRefunds` (its status).
 */
export async function recordOrphanCollection(
  request: PaymentRequest,
  callback: VerifiedCallback,
  /** `superseded`: another collection is the request's; `refused`: this one is, and ended it `error`. */
  collection: 'superseded' | 'refused' = 'superseded',
): Promise<{ recorded: boolean; events: OutboxEvent[] }> {
  const now = new Date();
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
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
  };
  const event = refundEvent(orphan, now);
  const writes: GuardedWrite[] = [
    orphanCreationWrite(orphan, () => new OrphanCollectionAlreadyRecorded()),
    orphanCollectionCheck(request, orphan.providerReference, collection, () => new CollectionBecameCurrent()),
    ...ledgerWrites({
      id: `orphan:${orphan.id}`,
      kind: 'refund',
      cause: `collection ${orphan.providerReference} of payment request ${request.id}, which it did not complete`,
      createdAt: orphan.createdAt,
      postings: orphanCollectionPostings({ provider: orphan.provider, amount: orphan.amountCents }),
    }),
    outboxWrite(event),
  ];
  try {
    await transactWrite(writes);
  } catch (error) {
    if (error instanceof OrphanCollectionAlreadyRecorded) {
      // Recorded by an earlier report, which may have stopped before asking for the payout: asking
      // again is safe, the provider keeps one payout per id.
      const recorded = await getOrphanCollection(orphan.id);
      return {
        recorded: false,
        events: recorded && !recorded.payoutReference ? await startRefund(recorded) : [],
      };
    }
    throw error;
  }
  logger.warn('orphan collection: refunding the payer', {
    orphanId: orphan.id,
    paymentRequestId: request.id,
    providerReference: orphan.providerReference,
  });
  count('OrphanCollections', { provider: orphan.provider });
  return { recorded: true, events: [event, ...(await startRefund(orphan))] };
}

/**
 * Asks the provider to pay the orphan back to the payer (idempotent on the orphan's id) and, when
 * its answer is already final, ends the refund. Nothing to ask without a number to pay: left for
 * an operator.
 */
export async function startRefund(orphan: OrphanCollection): Promise<OutboxEvent[]> {
  if (orphan.status !== 'refunding') return [];
  if (!orphan.payerPhone) {
    return settleRefund(orphan, 'refund_failed', 'payer_unknown');
  }
  try {
    const started = await providerFor(orphan.provider).startPayout({
      transferId: orphan.id,
      method: orphan.provider,
      amountCents: orphan.amountCents,
      currency: orphan.currency,
      beneficiaryName: orphan.payerPhone,
      beneficiaryNumber: orphan.payerPhone,
      callbackUrl: orphan.payoutCallbackUrl,
    });
    await recordRefundPayoutStarted(orphan.id, started.providerReference);
    return started.outcome ? settleOutcome(orphan, started.outcome) : [];
  } catch (error) {
    if (error instanceof ProviderRefused)
      return settleRefund(orphan, 'refund_failed', 'third_party_payment_provider_error');
    // Anything else leaves it refunding: the sweeper asks again.
    logger.error('orphan refund not started; the sweeper will retry', {
      orphanId: orphan.id,
      error: error as Error,
    });
    return [];
  }
}

const settleOutcome = (orphan: OrphanCollection, outcome: PayoutOutcome) =>
  outcome === 'success'
    ? settleRefund(orphan, 'refunded', null)
    : settleRefund(orphan, 'refund_failed', outcome);

/**
 * Ends a refund, once: paid (the ledger moves the debt to the payer onto the provider that paid
 * it) or failed (the money stays owed to the payer, for an operator). With its event.
 */
async function settleRefund(
  orphan: OrphanCollection,
  status: 'refunded' | 'refund_failed',
  errorReason: string | null,
): Promise<OutboxEvent[]> {
  const now = new Date();
  const ended: OrphanCollection = { ...orphan, status, errorReason, updatedAt: now.toISOString() };
  const event = refundEvent(ended, now);
  const writes: GuardedWrite[] = [
    orphanOutcomeWrite(
      orphan,
      { status, errorReason, updatedAt: ended.updatedAt },
      () => new OrphanRefundEnded(),
    ),
    outboxWrite(event),
  ];
  if (status === 'refunded') {
    writes.push(
      ...ledgerWrites({
        id: `orphan-refund:${orphan.id}`,
        kind: 'refund',
        cause: `refund of orphan collection ${orphan.id}`,
        createdAt: ended.updatedAt,
        postings: orphanRefundPostings({ method: orphan.provider, amount: orphan.amountCents }),
      }),
    );
  }
  try {
    await transactWrite(writes);
  } catch (error) {
    if (error instanceof OrphanRefundEnded) return [];
    throw error;
  }
  count('OrphanRefunds', { outcome: status, provider: orphan.provider });
  return [event];
}

/**
 * A verified payout callback that names no transfer may name an orphan's refund: it ends as the
 * provider says, once. Undefined when it names neither.
 */
export async function completeOrphanRefund(
  callback: VerifiedPayoutCallback,
): Promise<
  { result: 'completed' | 'already_completed' | 'wrong_payout'; events: OutboxEvent[] } | undefined
> {
  const orphan = await getOrphanCollection(callback.transferId);
  if (!orphan) return undefined;
  if (orphan.payoutReference && orphan.payoutReference !== callback.providerReference)
    return { result: 'wrong_payout', events: [] };
  if (orphan.status !== 'refunding') return { result: 'already_completed', events: [] };
  const events = await settleOutcome(orphan, callback.outcome);
  return { result: events.length > 0 ? 'completed' : 'already_completed', events };
}

/** A refund still under way this long after its orphan was recorded is asked about. */
export const orphanRefundQueryAfterMs = 2 * 60_000;

/**
 * Refunds still under way after `orphanRefundQueryAfterMs`: one whose payout was never asked (the
 * worker stopped between recording and asking) is asked now; one asked is ended from the
 * provider's status when it has one. Run on the transfers' sweep schedule.
 */
export async function sweepOrphanRefunds(now = new Date()): Promise<{ found: number; ended: number }> {
  const open = await listOrphanCollections('open', {
    before: new Date(now.getTime() - orphanRefundQueryAfterMs),
    limit: 100,
  });
  let ended = 0;
  for (const orphan of open) {
    try {
      if (!orphan.payoutReference) {
        ended += (await startRefund(orphan)).length > 0 ? 1 : 0;
        continue;
      }
      const answer = await providerFor(orphan.provider).payoutStatus(orphan.id);
      if (answer === 'pending') continue;
      // The provider lost the payout it was asked for: ask again (idempotent on the id).
      const events = answer === 'not_found' ? await startRefund(orphan) : await settleOutcome(orphan, answer);
      ended += events.length > 0 ? 1 : 0;
    } catch (error) {
      logger.error('orphan refund not swept', { orphanId: orphan.id, error: error as Error });
    }
  }
  return { found: open.length, ended };
}

/** The operator's view: every orphan collection, those still refunding first. */
export async function orphanCollectionsReport(): Promise<{
  open: OrphanCollection[];
  ended: OrphanCollection[];
  owedToPayersCents: number;
}> {
  const [open, ended] = await Promise.all([listOrphanCollections('open'), listOrphanCollections('done')]);
  const owedToPayersCents = [...open, ...ended]
    .filter((orphan) => orphan.status !== 'refunded')
    .reduce((sum, orphan) => sum + orphan.amountCents, 0);
  return { open, ended, owedToPayersCents };
}
