import { ownWebhookSubscriptionEndpoints } from '#shared/api/webhook-subscriptions.ts';
import { apiHandler } from '#shared/http/api-handler.ts';
import { deleteOwnSubscription } from '#shared/operations/own-webhook-subscription.ts';

export const handler = apiHandler(
  ownWebhookSubscriptionEndpoints.deleteOwnWebhookSubscription,
  async ({ caller, params }) => deleteOwnSubscription(caller, params.subscriptionId),
);
