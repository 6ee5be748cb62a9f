import { sendToQueue } from '#shared/aws/sqs.ts';
import { markOutboxEventDone, type OutboxEvent, pendingOutboxEvents } from '#shared/data/outbox.ts';
import { createDelivery, deliveryIdFor, type WebhookDelivery } from '#shared/data/webhook-delivery.ts';
import { getSubscription, subscribedTo } from '#shared/data/webhook-subscription.ts';
import { logger } from '#shared/logger.ts';

/** What the webhook queue carries: which delivery to attempt. The delivery holds the rest. */
export interface DeliveryMessage {
  businessId: string;
  deliveryId: string;
}

export type DispatchResult = 'queued' | 'not_subscribed';

/**
 * Hands one outbox event to the webhook queue: the delivery is created (once per event and
 * subscription, whoever gets there first), its message sent, and only then is the event marked
 * done. A crash between two steps leaves the event pending, and the sweeper runs this again: the
 * delivery is found instead of made twice.
 *
 * A delivery found with attempts already went through the queue, so it is not sent again. One
 * found without attempts may be a crashed run's, or a concurrent one's that is on its way: it is
 * sent, and the rare duplicate message is what receivers dedupe on the body's id for.
 *
 * Cost: the subscription read (0.5 RCU), the delivery put (~2 WCU), one SendMessage, and marking
 * the event (2 WCU).
 */
export async function dispatchOutboxEvent(event: OutboxEvent): Promise<DispatchResult> {
  const subscription = await getSubscription(event.businessId);
  if (!subscription || !subscribedTo(subscription, event.name)) {
    await markOutboxEventDone(event.id, 'no_subscriber');
    return 'not_subscribed';
  }
  const now = new Date().toISOString();
  const storeId = event.body.storeId;
  const { created, delivery } = await createDelivery({
    id: deliveryIdFor(event.id, subscription.id),
    businessId: event.businessId,
    ...(typeof storeId === 'string' ? { storeId } : {}),
    subscriptionId: subscription.id,
    eventId: event.id,
    eventName: event.name,
    url: subscription.url,
    body: JSON.stringify(event.body),
    status: 'pending',
    attempts: [],
    createdAt: now,
    updatedAt: now,
  });
  if (created || (delivery.status === 'pending' && delivery.attempts.length === 0)) {
    await queueDelivery(delivery);
  }
  await markOutboxEventDone(event.id, 'queued');
  return 'queued';
}

export async function queueDelivery(delivery: Pick<WebhookDelivery, 'businessId' | 'id'>): Promise<void> {
  const message: DeliveryMessage = { businessId: delivery.businessId, deliveryId: delivery.id };
  await sendToQueue('webhooks', message);
}

/**
 * Right after a state change, its events are dispatched by the function that made it, so webhooks
 * leave at once. Best effort: the change is already committed, and whatever fails here is left
 * pending for the sweeper, so it is logged rather than thrown.
 */
export async function dispatchPromptly(events: readonly OutboxEvent[]): Promise<void> {
  await Promise.all(
    events.map(async (event) => {
      try {
        await dispatchOutboxEvent(event);
      } catch (error) {
        logger.warn('outbox event not dispatched; the sweeper will', {
          eventId: event.id,
          error: error as Error,
        });
      }
    }),
  );
}

/** Events younger than this are left to the function that wrote them, which dispatches them itself. */
export const sweepAfterMs = 60_000;
/** Bounded, so one run ends well within its timeout; a backlog drains over the next runs. */
export const sweepBatch = 100;
const sweepConcurrency = 10;

export interface SweepReport {
  found: number;
  queued: number;
  notSubscribed: number;
  failed: number;
}

/**
 * Dispatches the outbox events that have been waiting longer than `sweepAfterMs`, oldest first.
 * One event failing does not stop the others; it stays pending for the next run.
 */
export async function sweepOutbox(now = new Date(), limit = sweepBatch): Promise<SweepReport> {
  const events = await pendingOutboxEvents(new Date(now.getTime() - sweepAfterMs), limit);
  const report: SweepReport = { found: events.length, queued: 0, notSubscribed: 0, failed: 0 };
  const queue = [...events];
  await Promise.all(
    Array.from({ length: Math.min(sweepConcurrency, queue.length) }, async () => {
      for (let event = queue.shift(); event; event = queue.shift()) {
        try {
          const result = await dispatchOutboxEvent(event);
          if (result === 'queued') report.queued++;
          else report.notSubscribed++;
        } catch (error) {
          report.failed++;
          logger.error('outbox event not dispatched', { eventId: event.id, error: error as Error });
        }
      }
    }),
  );
  return report;
}
