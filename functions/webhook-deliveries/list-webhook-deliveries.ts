import { apiHandler } from '#shared/http/api-handler.ts';
import { webhookDeliveriesOf } from '#shared/operations/webhook-deliveries.ts';
import { routes } from '#shared/routes.ts';
import { listWebhookDeliveriesQuery } from '#shared/schemas/webhook-deliveries.ts';

export const handler = apiHandler(
  routes.listWebhookDeliveries,
  { query: listWebhookDeliveriesQuery },
  ({ caller, query }) => webhookDeliveriesOf(caller, query),
);
