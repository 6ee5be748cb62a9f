import { type ListWebhookDeliveriesQuery, webhookDeliveryResponse } from '#shared/api/webhook-deliveries.ts';
import {
  createDelivery,
  failDelivery,
  getDelivery,
  listDeliveries,
  resendIdAt,
  type WebhookDelivery,
} from '#shared/data/webhook-delivery.ts';
import { getSubscription } from '#shared/data/webhook-subscription.ts';
import type { Caller } from '#shared/domain/caller.ts';
import { WebhookDeliveryNotFound, WebhookSubscriptionNotFound } from '#shared/errors/webhooks.ts';
import { queueDelivery } from '#shared/events/announce.ts';

/** Whose log it is: a key of the business (maybe scoped to a store), or a dashboard member. */
type DeliveryReader = Pick<Caller, 'businessId' | 'storeId'>;

/**
 * The delivery log of the caller's business, newest first. A key scoped to a store sees the
 * deliveries of that store's events only, as it sees that store's transactions only.
 */
export async function webhookDeliveriesOf(caller: DeliveryReader, query: ListWebhookDeliveriesQuery) {
  const { total, items } = await listDeliveries(caller.businessId, { ...query, storeId: caller.storeId });
  return { total, perPage: query.limit, currentPage: query.page, data: items.map(webhookDeliveryResponse) };
}

/**
 * Sends a delivery's event again, the same bytes, to the business's subscription as it is now: a
 * new delivery with a fresh attempt log, pointing back at the one it repeats.
 */
export async function resendWebhookDelivery(caller: DeliveryReader, id: string): Promise<WebhookDelivery> {
  const original = await getDelivery(caller.businessId, id);
  if (!original || (caller.storeId !== undefined && original.storeId !== caller.storeId))
    throw new WebhookDeliveryNotFound();
  const subscription = await getSubscription(caller.businessId);
  if (!subscription) throw new WebhookSubscriptionNotFound();
  const now = new Date().toISOString();
  const { delivery } = await createDelivery({
    id: resendIdAt(now),
    businessId: original.businessId,
    ...(original.storeId ? { storeId: original.storeId } : {}),
    subscriptionId: subscription.id,
    eventId: original.eventId,
    eventName: original.eventName,
    url: subscription.url,
    body: original.body,
    status: 'pending',
    attempts: [],
    createdAt: now,
    updatedAt: now,
    resendOf: original.id,
  });
  try {
    await queueDelivery(delivery);
  } catch (error) {
    // Nothing would ever send it: the log must not show it pending forever.
    await failDelivery(delivery, 'The re-send could not be queued; try again');
    throw error;
  }
  return delivery;
}
