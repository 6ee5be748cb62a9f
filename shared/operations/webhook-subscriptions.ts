import type { CreateWebhookSubscriptionBody } from '#shared/api/webhook-subscriptions.ts';
import { getLink, type ServiceProviderLink } from '#shared/data/service-provider-link.ts';
import {
  deleteSubscription,
  getSubscription,
  type NewWebhookSubscription,
  saveSubscription,
  type WebhookSubscription,
} from '#shared/data/webhook-subscription.ts';
import type { Caller } from '#shared/domain/caller.ts';
import { defaultWebhookEvents } from '#shared/domain/webhook-events.ts';
import { BusinessNotFound } from '#shared/errors/businesses.ts';

/**
 * A service provider manages the webhook subscription of the merchants linked to it. A merchant
 * that is not linked to the caller is answered exactly as one that does not exist, so a provider
 * cannot learn which business ids are real.
 */
async function linkedMerchant(caller: Caller, merchantBusinessId: string): Promise<ServiceProviderLink> {
  const link = await getLink(caller.businessId, merchantBusinessId);
  if (!link) throw new BusinessNotFound();
  return link;
}

/** The merchant's subscriptions: at most one. */
export async function merchantSubscriptions(
  caller: Caller,
  merchantBusinessId: string,
): Promise<WebhookSubscription[]> {
  // Read together; the subscription is dropped unread when the link check fails.
  const [link, subscription] = await Promise.all([
    getLink(caller.businessId, merchantBusinessId),
    getSubscription(merchantBusinessId),
  ]);
  if (!link) throw new BusinessNotFound();
  return subscription ? [subscription] : [];
}

/** A second subscription for the same merchant is 409 `webhook_subscription_exists`: delete first. */
export async function createMerchantSubscription(
  caller: Caller,
  body: CreateWebhookSubscriptionBody,
): Promise<NewWebhookSubscription> {
  const link = await linkedMerchant(caller, body.merchantBusinessId);
  return saveSubscription(
    {
      businessId: link.merchantBusinessId,
      url: body.url,
      name: body.name ?? link.serviceProviderBusinessName,
      events: [...new Set(body.events ?? defaultWebhookEvents)],
    },
    { replace: false },
  );
}

export async function deleteMerchantSubscription(
  caller: Caller,
  merchantBusinessId: string,
  subscriptionId: string,
): Promise<{ message: string }> {
  const link = await linkedMerchant(caller, merchantBusinessId);
  await deleteSubscription(link.merchantBusinessId, subscriptionId);
  return { message: 'Webhook subscription deleted' };
}
