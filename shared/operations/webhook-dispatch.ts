import { sendToQueue } from '#shared/aws/sqs.ts';
import {
  moveOutboxCursor,
  type OutboxEvent,
  outboxCursor,
  outboxEventsFrom,
  sweepPosition,
} from '#shared/data/outbox.ts';
import {
  createDelivery,
  deliveryIdFor,
  getDelivery,
  type WebhookDelivery,
} from '#shared/data/webhook-delivery.ts';
import {
  deliveryBodyOf,
  getSubscription,
  subscribedTo,
  type WebhookSubscription,
} from '#shared/data/webhook-subscription.ts';
import { logger } from '#shared/logger.ts';

/** What the webhook queue carries: which delivery to attempt. The delivery holds the rest. */
export interface DeliveryMessage {
  businessId: string;
  deliveryId: string;
  /**
   * A recovery message, sent delayed: it attempts the delivery only if no attempt was ever made
   * (the message that made it was lost), and is dropped otherwise.
   */
  ifNeverAttempted?: true;
}

export type DispatchResult = 'queued' | 'not_subscribed';

/**
 * Hands one outbox event to the webhook queue: the delivery is created (once per event and
 * subscription, whoever gets there first) and its message sent. A crash between the two leaves
 * the delivery unsent, and the sweeper runs this again: the delivery is found instead of made
 * twice.
 *
 * A delivery found with attempts already went through the queue, so it is not sent again. One
 * found without attempts may be a crashed run's, or a concurrent one's that is on its way: it is
 * sent, and the rare duplicate message is what receivers dedupe on the body's id for.
 *
 * Cost: the subscription read (0.5 RCU), the delivery put (1 WCU: under 1 KB, no index), one
 * SendMessage.
 */
export async function dispatchOutboxEvent(
  event: OutboxEvent,
  subscription?: WebhookSubscription | undefined,
): Promise<DispatchResult> {
  subscription ??= await getSubscription(event.businessId);
  if (!subscription || !subscribedTo(subscription, event.name)) return 'not_subscribed';
  const now = new Date().toISOString();
  const storeId = event.body.storeId;
  const { created, delivery } = await createDelivery({
    id: deliveryIdFor(event, subscription.id),
    businessId: event.businessId,
    ...(typeof storeId === 'string' ? { storeId } : {}),
    subscriptionId: subscription.id,
    eventId: event.id,
    eventName: event.name,
    url: subscription.url,
    body: deliveryBodyOf(subscription, event.name, event.body),
    status: 'pending',
    attempts: [],
    createdAt: now,
    updatedAt: now,
  });
  if (created || (delivery.status === 'pending' && delivery.attempts.length === 0)) {
    await queueDelivery(delivery);
  }
  return 'queued';
}

export async function queueDelivery(delivery: Pick<WebhookDelivery, 'businessId' | 'id'>): Promise<void> {
  const message: DeliveryMessage = { businessId: delivery.businessId, deliveryId: delivery.id };
  await sendToQueue('webhooks', message);
}

/** SQS's longest delay: as long as the sweeper's `unsent` pass waits before sending again. */
export const recoveryDelaySeconds = 900;

/**
 * Queues a message that sends `delivery` in 15 minutes if it has still never been attempted by
 * then: sooner, a delivery on the queue or at a slow receiver would go twice.
 */
export async function queueRecovery(delivery: Pick<WebhookDelivery, 'businessId' | 'id'>): Promise<void> {
  const message: DeliveryMessage = {
    businessId: delivery.businessId,
    deliveryId: delivery.id,
    ifNeverAttempted: true,
  };
  await sendToQueue('webhooks', message, { delaySeconds: recoveryDelaySeconds });
}

/**
 * Right after a state change, its events are dispatched by the function that made it, so webhooks
 * leave at once. Best effort: the change is already committed, and whatever fails here is made up
 * for by the table stream's consumer (a payment's completion) or the sweeper (an outbox item), so
 * it is logged rather than thrown.
 */
export async function dispatchPromptly(events: readonly OutboxEvent[]): Promise<void> {
  await Promise.all(
    events.map(async (event) => {
      try {
        await dispatchOutboxEvent(event);
      } catch (error) {
        logger.warn('event not dispatched; the stream consumer or the sweeper will', {
          eventId: event.id,
          error: error as Error,
        });
      }
    }),
  );
}

/**
 * The sweeper's two passes over the outbox, each behind its own cursor:
 * - `missing`, a minute after an event: its delivery is missing (the function that wrote the
 *   event stopped or failed before making it), so it is made and sent. The minute is also what an
 *   event may take between its `createdAt` and its commit and index entry (the longest function
 *   that writes events runs 50 s), since a cursor never goes back over what it has passed.
 * - `unsent`, 15 minutes after: its delivery exists but was never attempted (the function
 *   stopped between making it and sending it, or the send was lost), so it is sent. Any sooner,
 *   and a delivery still on the queue or with a slow receiver (30 s) would be sent twice.
 * `OUTBOX_SWEEP_AFTER_SECONDS` shortens the first for tests of the local host.
 */
export const sweeps = {
  missing: {
    afterMs: () => secondsFromEnvironment('OUTBOX_SWEEP_AFTER_SECONDS', 60) * 1000,
    sendUnsent: false,
  },
  unsent: { afterMs: () => 15 * 60_000, sendUnsent: true },
} as const;
export type SweepName = keyof typeof sweeps;

const secondsFromEnvironment = (name: string, fallback: number) => {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
};

/** Bounded, so one run ends well within its timeout; a backlog drains over the next runs. */
export const sweepBatch = 100;
const sweepConcurrency = 10;

export interface SweepReport {
  /** Events looked at: every event, once per pass. */
  found: number;
  /** Sent now: their delivery was missing (or, in the `unsent` pass, never attempted). */
  queued: number;
  /** Dispatched already, by the function that wrote them or an earlier pass. */
  alreadyDispatched: number;
  notSubscribed: number;
  failed: number;
}

/** Both passes, the one a minute behind first. */
export async function sweepOutbox(now = new Date(), limit = sweepBatch): Promise<SweepReport> {
  const missing = await sweepPass('missing', now, limit);
  const unsent = await sweepPass('unsent', now, limit);
  return {
    found: missing.found + unsent.found,
    queued: missing.queued + unsent.queued,
    alreadyDispatched: missing.alreadyDispatched + unsent.alreadyDispatched,
    notSubscribed: missing.notSubscribed + unsent.notSubscribed,
    failed: missing.failed + unsent.failed,
  };
}

/**
 * Walks the events written since the pass's cursor, up to its delay ago, oldest first, and
 * dispatches those whose delivery is missing (or, in the `unsent` pass, was never attempted);
 * then moves the cursor past what it handled, but not past an event that failed, which the next
 * run tries again (with the ones after it, which it finds dispatched). Each event is read once a
 * pass, with its delivery (0.5 RCU each) and its business's subscription (0.5 RCU per business
 * per run): reads, where marking every event done would cost 2 WCU each.
 *
 * A subscription made after the event is not sent it: it is not the one the event was for.
 */
export async function sweepPass(sweep: SweepName, now: Date, limit: number): Promise<SweepReport> {
  const from = await outboxCursor(sweep);
  const events = await outboxEventsFrom(from, new Date(now.getTime() - sweeps[sweep].afterMs()), limit);
  const report: SweepReport = {
    found: events.length,
    queued: 0,
    alreadyDispatched: 0,
    notSubscribed: 0,
    failed: 0,
  };
  const subscriptions = new Map<string, Promise<WebhookSubscription | undefined>>();
  const subscriptionOf = (businessId: string) => {
    let subscription = subscriptions.get(businessId);
    if (!subscription) {
      subscription = getSubscription(businessId);
      subscriptions.set(businessId, subscription);
    }
    return subscription;
  };
  let firstFailed: string | undefined;
  const queue = [...events];
  await Promise.all(
    Array.from({ length: Math.min(sweepConcurrency, queue.length) }, async () => {
      for (let event = queue.shift(); event; event = queue.shift()) {
        try {
          const subscription = await subscriptionOf(event.businessId);
          if (
            !subscription ||
            !subscribedTo(subscription, event.name) ||
            subscription.createdAt > event.createdAt
          ) {
            report.notSubscribed++;
            continue;
          }
          // A minute after the dispatch, an eventually consistent read sees the delivery.
          const delivery = await getDelivery(event.businessId, deliveryIdFor(event, subscription.id));
          const unsent = delivery?.status === 'pending' && delivery.attempts.length === 0;
          if (delivery && !(unsent && sweeps[sweep].sendUnsent)) {
            report.alreadyDispatched++;
            continue;
          }
          await dispatchOutboxEvent(event, subscription);
          report.queued++;
        } catch (error) {
          report.failed++;
          const position = sweepPosition(event);
          if (firstFailed === undefined || position < firstFailed) firstFailed = position;
          logger.error('outbox event not dispatched', { eventId: event.id, sweep, error: error as Error });
        }
      }
    }),
  );
  // Up to just before the first failure, so the next run starts at it.
  const last = events.at(-1);
  const through =
    firstFailed !== undefined
      ? (events[events.findIndex((event) => sweepPosition(event) === firstFailed) - 1] ?? undefined)
      : last;
  const to = through ? sweepPosition(through) : undefined;
  if (to !== undefined && to > from) await moveOutboxCursor(sweep, from, to);
  return report;
}
