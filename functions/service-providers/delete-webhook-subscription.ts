import { webhookSubscriptionEndpoints } from '#shared/api/webhook-subscriptions.ts';
import { apiHandler } from '#shared/http/api-handler.ts';
import { deleteMerchantSubscription } from '#shared/operations/webhook-subscriptions.ts';

export const handler = apiHandler(
  webhookSubscriptionEndpoints.deleteWebhookSubscription,
  async ({ caller, params, query }) =>
    deleteMerchantSubscription(caller, query.merchantBusinessId, params.subscriptionId),
);
