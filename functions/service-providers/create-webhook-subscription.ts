import {
  createdWebhookSubscriptionResponse,
  webhookSubscriptionEndpoints,
} from '#shared/api/webhook-subscriptions.ts';
import { apiHandler } from '#shared/http/api-handler.ts';
import { createMerchantSubscription } from '#shared/operations/webhook-subscriptions.ts';

// No Idempotency-Key replay here: it would keep a copy of the answer, secret included, in the
// table. A retried create answers 409 instead, and the provider deletes and creates again.
export const handler = apiHandler(
  webhookSubscriptionEndpoints.createWebhookSubscription,
  async ({ caller, body }) =>
    createdWebhookSubscriptionResponse(await createMerchantSubscription(caller, body)),
);
