import { apiHandler } from '#shared/http/api-handler.ts';
import { merchantSubscriptions } from '#shared/operations/webhook-subscriptions.ts';
import { webhookRoutes } from '#shared/routes.ts';
import { merchantBusinessQuery, webhookSubscriptionResponse } from '#shared/schemas/webhook-subscriptions.ts';

export const handler = apiHandler(
  webhookRoutes.listWebhookSubscriptions,
  { query: merchantBusinessQuery },
  async ({ caller, query }) =>
    (await merchantSubscriptions(caller, query.merchantBusinessId)).map(webhookSubscriptionResponse),
);
