import {
  webhookSubscriptionEndpoints,
  webhookSubscriptionResponse,
} from '#shared/api/webhook-subscriptions.ts';
import { apiHandler } from '#shared/http/api-handler.ts';
import { merchantSubscriptions } from '#shared/operations/webhook-subscriptions.ts';

export const handler = apiHandler(
  webhookSubscriptionEndpoints.listWebhookSubscriptions,
  async ({ caller, query }) =>
    (await merchantSubscriptions(caller, query.merchantBusinessId)).map(webhookSubscriptionResponse),
);
