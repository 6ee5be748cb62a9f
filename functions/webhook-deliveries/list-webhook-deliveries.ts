import { webhookDeliveryEndpoints } from '#shared/api/webhook-deliveries.ts';
import { apiHandler } from '#shared/http/api-handler.ts';
import { webhookDeliveriesOf } from '#shared/operations/webhook-deliveries.ts';

export const handler = apiHandler(webhookDeliveryEndpoints.listWebhookDeliveries, ({ caller, query }) =>
  webhookDeliveriesOf(caller, query),
);
