import {
  collectionsToPoll,
  type PaymentRequest,
  reschedulePoll,
  stopPolling,
} from '#shared/data/payment-request.ts';
import { collectionPollDelayMs, maxCollectionPolls } from '#shared/domain/collection-polling.ts';
import { logger } from '#shared/logger.ts';
import { providerFor } from '#shared/providers/routing.ts';
import { completePayment } from '#shared/settlement/collections.ts';

export interface CollectionSweepReport {
  found: number;
  completed: number;
  stillPending: number;
  failed: number;
}

/**
 * Asks the live providers about collections still pending (their callback lost, refused as
 * unproven, or not yet sent) and completes those with a final answer, exactly as a verified callback
 * would: completion happens once whichever comes first. Run on a schedule.
 */
export async function sweepPendingCollections(now = new Date(), limit = 100): Promise<CollectionSweepReport> {
  const due = await collectionsToPoll(now, limit);
  const report: CollectionSweepReport = { found: due.length, completed: 0, stillPending: 0, failed: 0 };
  for (const request of due as (PaymentRequest & { statusPolls?: number })[]) {
    try {
      const method = request.collectionMethod ?? request.paymentMethod;
      const provider = providerFor(method, { phone: request.payerPhone, country: request.storeCountry });
      if (request.status !== 'pending' || !request.providerReference || !provider.collectionStatus) {
        await stopPolling(request);
        continue;
      }
      const answer = await provider.collectionStatus(request.providerReference);
      if (answer === 'pending' || answer === 'not_found') {
        const polls = (request.statusPolls ?? 0) + 1;
        const next =
          polls >= maxCollectionPolls ? undefined : new Date(now.getTime() + collectionPollDelayMs(polls));
        if (!next) {
          logger.error('collection still pending after the polling bound: left for an operator', {
            paymentRequestId: request.id,
            providerReference: request.providerReference,
            answer,
          });
        }
        await reschedulePoll(request, next);
        report.stillPending++;
        continue;
      }
      await completePayment({
        callbackId: `poll:${request.providerReference}`,
        provider: method,
        providerReference: request.providerReference,
        paymentRequestId: request.id,
        outcome: answer,
      });
      report.completed++;
    } catch (error) {
      report.failed++;
      logger.error('pending collection not polled', { paymentRequestId: request.id, error: error as Error });
    }
  }
  return report;
}
