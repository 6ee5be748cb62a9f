import { array, enum as enumOf, object, string, uuid } from 'zod';
import type { NewWebhookSubscription, WebhookSubscription } from '#shared/data/webhook-subscription.ts';
import { webhookEventNames } from '#shared/domain/webhook-events.ts';
import { refusedWebhookUrl, webhookUrlPolicy } from '#shared/domain/webhook-url.ts';

export const merchantBusinessQuery = object({ merchantBusinessId: uuid() });

/** Checked against the policy of where the function runs: https and public hosts on a stage. */
const webhookUrl = string()
  .max(2048)
  .superRefine((url, context) => {
    const reason = refusedWebhookUrl(url, webhookUrlPolicy());
    if (reason) {
      context.addIssue({
        code: 'custom',
        params: { rule: 'url' },
        message: `The url field is not allowed (${reason}).`,
      });
    }
  });

export const createWebhookSubscriptionBody = object({
  merchantBusinessId: uuid(),
  url: webhookUrl,
  name: string().min(1).max(255).optional(),
  events: array(enumOf(webhookEventNames)).min(1).max(webhookEventNames.length).optional(),
});

export type CreateWebhookSubscriptionBody = ReturnType<typeof createWebhookSubscriptionBody.parse>;

export const webhookSubscriptionPathParams = object({ subscriptionId: uuid() });

/** The interface's Webhook subscription. The secret is not part of it: it is shown once, at creation. */
export const webhookSubscriptionResponse = (subscription: WebhookSubscription) => ({
  id: subscription.id,
  url: subscription.url,
  name: subscription.name,
  businessId: subscription.businessId,
  events: subscription.events,
  createdAt: subscription.createdAt,
  updatedAt: subscription.updatedAt,
});

export const createdWebhookSubscriptionResponse = (subscription: NewWebhookSubscription) => ({
  ...webhookSubscriptionResponse(subscription),
  secret: subscription.secret,
});
