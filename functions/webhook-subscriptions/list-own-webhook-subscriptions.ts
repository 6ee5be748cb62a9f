import {
  ownWebhookSubscriptionEndpoints,
  webhookSubscriptionResponse,
} from '#shared/api/webhook-subscriptions.ts';
import { apiHandler } from '#shared/http/api-handler.ts';
import { ownSubscriptions } from '#shared/operations/own-webhook-subscription.ts';

export const handler = apiHandler(
  ownWebhookSubscriptionEndpoints.listOwnWebhookSubscriptions,
  async ({ caller }) => (await ownSubscriptions(caller)).map(webhookSubscriptionResponse),
);
