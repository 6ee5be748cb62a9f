import { apiHandler } from '#shared/http/api-handler.ts';
import { webhookDeliveriesOf } from '#shared/operations/webhook-deliveries.ts';
import { webhookRoutes } from '#shared/routes.ts';
import { listWebhookDeliveriesQuery } from '#shared/schemas/webhook-deliveries.ts';

export const handler = apiHandler(
  webhookRoutes.listWebhookDeliveries,
  { query: listWebhookDeliveriesQuery },
  ({ caller, query }) => webhookDeliveriesOf(caller, query),
);
