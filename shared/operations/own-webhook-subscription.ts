import { randomUUID } from 'node:crypto';
import { getBusiness } from '#shared/data/business.ts';
import {
  createDelivery,
  failDelivery,
  resendIdAt,
  type WebhookDelivery,
} from '#shared/data/webhook-delivery.ts';
import {
  changeSubscription,
  deleteSubscription,
  deliveryBodyOf,
  getSubscription,
  type NewWebhookSubscription,
  rotateSubscriptionSecret,
  saveSubscription,
  type WebhookBodyFormat,
  type WebhookSubscription,
} from '#shared/data/webhook-subscription.ts';
import { defaultWebhookEvents } from '#shared/domain/webhook-events.ts';
import { refusedWebhookUrl, webhookUrlPolicy } from '#shared/domain/webhook-url.ts';
import { ForbiddenAction } from '#shared/errors/auth.ts';
import { ValidationFailed } from '#shared/errors/request.ts';
import { WebhookSubscriptionNotFound } from '#shared/errors/webhooks.ts';
import { queueDelivery } from '#shared/events/announce.ts';

/**
 * A business's own webhook subscription, set by the business itself (its merchant key on the API,
 * a member on the dashboard) rather than by its service provider: the same entity, the same rules
 * (the URL policy of the stage, one subscription per business: a second is 409
 * `webhook_subscription_exists`), the same sending path. Another business's subscription id is
 * not found, as the subscription is read under the caller's own business.
 */
export interface OwnSubscriptionInput {
  url: string;
  name?: string | undefined;
  events?: readonly string[] | undefined;
  bodyFormat?: WebhookBodyFormat | undefined;
}

/** The URL rule of the schema, for callers that are not validated by one (the dashboard's form). */
export function requireAllowedWebhookUrl(url: string): void {
  const reason =
    url.length > 2048 ? 'longer than 2048 characters' : refusedWebhookUrl(url, webhookUrlPolicy());
  if (reason) {
    throw new ValidationFailed([
      { field: 'url', rule: 'url', message: `The url field is not allowed (${reason}).` },
    ]);
  }
}

/**
 * Who sets a business's own subscription: the business (a dashboard member, an API key). A key
 * scoped to one store is refused (403 `forbidden_action`): the subscription gets every store's
 * events, beyond what that key may see.
 */
export interface SubscriptionOwner {
  businessId: string;
  storeId?: string | undefined;
}

function businessOf(owner: SubscriptionOwner): string {
  if (owner.storeId !== undefined) {
    throw new ForbiddenAction('A key scoped to one store cannot manage the business’s webhook subscription');
  }
  return owner.businessId;
}

export async function ownSubscriptions(owner: SubscriptionOwner): Promise<WebhookSubscription[]> {
  const subscription = await getSubscription(businessOf(owner));
  return subscription ? [subscription] : [];
}

export async function createOwnSubscription(
  owner: SubscriptionOwner,
  input: OwnSubscriptionInput,
): Promise<NewWebhookSubscription> {
  const businessId = businessOf(owner);
  requireAllowedWebhookUrl(input.url);
  const name = input.name ?? (await getBusiness(businessId))?.name ?? 'Webhook';
  return saveSubscription(
    {
      businessId,
      url: input.url,
      name,
      events: [...new Set(input.events ?? defaultWebhookEvents)],
      bodyFormat: input.bodyFormat,
    },
    { replace: false },
  );
}

/** Changes the subscription in place: its id and secret stay, so deliveries under way still go. */
export async function changeOwnSubscription(
  owner: SubscriptionOwner,
  subscriptionId: string,
  input: Required<Pick<OwnSubscriptionInput, 'url' | 'name' | 'events' | 'bodyFormat'>>,
): Promise<WebhookSubscription> {
  const businessId = businessOf(owner);
  requireAllowedWebhookUrl(input.url);
  return changeSubscription(businessId, subscriptionId, {
    url: input.url,
    name: input.name,
    events: [...new Set(input.events)],
    bodyFormat: input.bodyFormat,
  });
}

export async function deleteOwnSubscription(owner: SubscriptionOwner, subscriptionId: string) {
  await deleteSubscription(businessOf(owner), subscriptionId);
  return { message: 'Webhook subscription deleted' };
}

export const rotateOwnSecret = (owner: SubscriptionOwner, subscriptionId: string) =>
  rotateSubscriptionSecret(businessOf(owner), subscriptionId);

/**
 * The `Svc-Event` of a test delivery. It is no event a subscription can ask for, so no receiver
 * takes it for a payment; its body says it is a test.
 */
export const testEventName = 'WEBHOOK_TEST';

/**
 * Sends a test event to the business's subscription through the real path: a delivery in the log,
 * queued for the webhook sender, which signs it with the subscription's secret like any other.
 */
export async function sendTestEvent(
  owner: SubscriptionOwner,
  businessName: string,
): Promise<WebhookDelivery> {
  const businessId = businessOf(owner);
  const subscription = await getSubscription(businessId);
  if (!subscription) throw new WebhookSubscriptionNotFound();
  const now = new Date().toISOString();
  const eventId = `${testEventName}:${randomUUID()}`;
  const body = {
    id: eventId,
    test: true,
    businessName,
    description: 'A test event sent from the dashboard: nothing happened to any payment.',
    createdAt: now,
  };
  const { delivery } = await createDelivery({
    id: resendIdAt(now),
    businessId,
    subscriptionId: subscription.id,
    eventId,
    eventName: testEventName,
    url: subscription.url,
    body: deliveryBodyOf(subscription, testEventName, body),
    status: 'pending',
    attempts: [],
    createdAt: now,
    updatedAt: now,
  });
  try {
    await queueDelivery(delivery);
  } catch (error) {
    await failDelivery(delivery, 'The test event could not be queued; try again');
    throw error;
  }
  return delivery;
}
