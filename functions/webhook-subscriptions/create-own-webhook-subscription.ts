import {
  createdWebhookSubscriptionResponse,
  ownWebhookSubscriptionEndpoints,
} from '#shared/api/webhook-subscriptions.ts';
import { apiHandler } from '#shared/http/api-handler.ts';
import { createOwnSubscription } from '#shared/operations/own-webhook-subscription.ts';

// No Idempotency-Key replay, as for a provider's: the answer carries the secret, never stored.
export const handler = apiHandler(
  ownWebhookSubscriptionEndpoints.createOwnWebhookSubscription,
  async ({ caller, body }) => createdWebhookSubscriptionResponse(await createOwnSubscription(caller, body)),
);
