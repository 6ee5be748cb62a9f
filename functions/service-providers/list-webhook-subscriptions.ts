import { apiHandler } from '#shared/http/api-handler.ts';
import { merchantSubscriptions } from '#shared/operations/webhook-subscriptions.ts';
import { routes } from '#shared/routes.ts';
import { merchantBusinessQuery, webhookSubscriptionResponse } from '#shared/schemas/webhook-subscriptions.ts';

export const handler = apiHandler(
  routes.listWebhookSubscriptions,
  { query: merchantBusinessQuery },
  async ({ caller, query }) =>
    (await merchantSubscriptions(caller, query.merchantBusinessId)).map(webhookSubscriptionResponse),
);
