import { sendToQueue } from '#shared/aws/sqs.ts';
import { deliveryIdFor, type WebhookDelivery } from '#shared/data/webhook-delivery.ts';
import { getSubscription, subscribedTo } from '#shared/data/webhook-subscription.ts';
import type { ServiceEvent } from '#shared/events/service-event.ts';

/**
 * What the webhook queue carries: which delivery to attempt. A first delivery's message carries its
 * event, and the sender makes the delivery at its first attempt (the write that also claims that
 * attempt); a re-send's delivery is made before its message is sent.
 */
export interface DeliveryMessage {
  businessId: string;
  deliveryId: string;
  /** The event, for the sender to make the delivery with: absent when it exists already. */
  event?: ServiceEvent | undefined;
  /** The subscription the event is for. */
  subscriptionId?: string | undefined;
}

export type Announced = 'queued' | 'not_subscribed';

/**
 * Hands an event to the webhook queue for the business's subscription, if it wants it: one message
 * naming the delivery the event makes (its id derived from the event and the subscription, so a
 * second message for the same event names the same delivery, which the sender attempts once at a
 * time). A subscription made after the event is not sent it: it is not the one the event was for.
 *
 * Cost: the subscription's read (0.5 RCU), one SendMessage; nothing written.
 */
export async function announce(event: ServiceEvent): Promise<Announced> {
  const subscription = await getSubscription(event.businessId);
  if (!subscription || !subscribedTo(subscription, event.name) || subscription.createdAt > event.createdAt)
    return 'not_subscribed';
  const message: DeliveryMessage = {
    businessId: event.businessId,
    deliveryId: deliveryIdFor(event, subscription.id),
    event,
    subscriptionId: subscription.id,
  };
  await sendToQueue('webhooks', message);
  return 'queued';
}

/** Queues a delivery made already (a re-send, a test event) for the sender. */
export async function queueDelivery(delivery: Pick<WebhookDelivery, 'businessId' | 'id'>): Promise<void> {
  const message: DeliveryMessage = { businessId: delivery.businessId, deliveryId: delivery.id };
  await sendToQueue('webhooks', message);
}
