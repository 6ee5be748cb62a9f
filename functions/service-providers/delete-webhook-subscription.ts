import { apiHandler } from '#shared/http/api-handler.ts';
import { deleteMerchantSubscription } from '#shared/operations/webhook-subscriptions.ts';
import { webhookRoutes } from '#shared/routes.ts';
import {
  merchantBusinessQuery,
  webhookSubscriptionPathParams,
} from '#shared/schemas/webhook-subscriptions.ts';

export const handler = apiHandler(
  webhookRoutes.deleteWebhookSubscription,
  { params: webhookSubscriptionPathParams, query: merchantBusinessQuery },
  async ({ caller, params, query }) =>
    deleteMerchantSubscription(caller, query.merchantBusinessId, params.subscriptionId),
);
