import { webhookDeliveryEndpoints, webhookDeliveryResponse } from '#shared/api/webhook-deliveries.ts';
import { apiHandler } from '#shared/http/api-handler.ts';
import { resendWebhookDelivery } from '#shared/operations/webhook-deliveries.ts';

export const handler = apiHandler(
  webhookDeliveryEndpoints.resendWebhookDelivery,
  async ({ caller, params }) => webhookDeliveryResponse(await resendWebhookDelivery(caller, params.id)),
);
