import { apiHandler } from '#shared/http/api-handler.ts';
import { resendWebhookDelivery } from '#shared/operations/webhook-deliveries.ts';
import { webhookRoutes } from '#shared/routes.ts';
import { webhookDeliveryPathParams, webhookDeliveryResponse } from '#shared/schemas/webhook-deliveries.ts';

export const handler = apiHandler(
  webhookRoutes.resendWebhookDelivery,
  { params: webhookDeliveryPathParams },
  async ({ caller, params }) => webhookDeliveryResponse(await resendWebhookDelivery(caller, params.id)),
);
