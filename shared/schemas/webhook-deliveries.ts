import { array, coerce, enum as enumOf, int, nullable, object, type output, string, uuid } from 'zod';
import { deliveryStatuses, type WebhookDelivery } from '#shared/data/webhook-delivery.ts';
import { instant } from '#shared/schemas/common.ts';
import type { RouteContracts } from '#shared/schemas/contract.ts';

export const listWebhookDeliveriesQuery = object({
  status: enumOf(deliveryStatuses).optional(),
  page: coerce.number().int().min(1).default(1),
  limit: coerce.number().int().min(1).max(100).default(100),
});

export type ListWebhookDeliveriesQuery = ReturnType<typeof listWebhookDeliveriesQuery.parse>;

export const webhookDeliveryPathParams = object({ id: uuid() });

export const webhookDeliverySchema = object({
  id: uuid(),
  eventId: string(),
  eventName: string().meta({ description: 'The `Svc-Event` of the delivery.' }),
  url: string(),
  status: enumOf(deliveryStatuses),
  attempts: array(
    object({
      at: instant,
      status: nullable(int()).meta({ description: 'The receiver’s HTTP status; null when none came.' }),
      error: nullable(string()),
      durationMs: int(),
      responseExcerpt: string().meta({ description: 'The first KB of the receiver’s answer.' }),
    }),
  ),
  failureReason: string().optional(),
  resendOf: uuid().optional().meta({ description: 'The delivery this one sends again.' }),
  createdAt: instant,
  updatedAt: instant,
}).meta({
  id: 'WebhookDelivery',
  examples: [
    {
      id: '75cfebbd-f7c6-8302-bb01-c1529df1a884',
      eventId: 'TRANSACTION_COMPLETED:bfe37c2f-5b1d-4c1e-9d7a-0d3e6a2f4b55',
      eventName: 'TRANSACTION_COMPLETED',
      url: 'https://boutique-awa.ci/webhooks/paiements',
      status: 'delivered',
      attempts: [
        {
          at: '2026-11-20T14:08:55.796Z',
          status: 200,
          error: null,
          durationMs: 48,
          responseExcerpt: '{"recu":true}',
        },
      ],
      createdAt: '2026-11-20T14:08:55.665Z',
      updatedAt: '2026-11-20T14:08:55.796Z',
    },
  ],
});

export type WebhookDeliveryResponse = output<typeof webhookDeliverySchema>;

export const webhookDeliveryListSchema = object({
  total: int(),
  perPage: int(),
  currentPage: int(),
  data: array(webhookDeliverySchema),
}).meta({ id: 'WebhookDeliveryList' });

/** A delivery as its business sees it: where it went and how every attempt ended, no secret. */
export function webhookDeliveryResponse(delivery: WebhookDelivery): WebhookDeliveryResponse {
  return {
    id: delivery.id,
    eventId: delivery.eventId,
    eventName: delivery.eventName,
    url: delivery.url,
    status: delivery.status,
    attempts: delivery.attempts.map((attempt) => ({
      at: attempt.at,
      status: attempt.status ?? null,
      error: attempt.error ?? null,
      durationMs: attempt.durationMs,
      responseExcerpt: attempt.responseExcerpt,
    })),
    ...(delivery.failureReason ? { failureReason: delivery.failureReason } : {}),
    ...(delivery.resendOf ? { resendOf: delivery.resendOf } : {}),
    createdAt: delivery.createdAt,
    updatedAt: delivery.updatedAt,
  };
}

export const webhookDeliveryContracts = {
  listWebhookDeliveries: {
    tag: 'Webhooks',
    summary: 'List the webhook deliveries',
    description: 'The delivery log of the last 30 days, newest first, with every attempt.',
    query: listWebhookDeliveriesQuery,
    response: webhookDeliveryListSchema,
    responseDescription: 'One page of the log.',
  },
  resendWebhookDelivery: {
    tag: 'Webhooks',
    summary: 'Send a delivery again',
    description:
      'Sends the same body (same bytes, same `id`) as a new delivery to the business’s subscription as ' +
      'it is now. Without a subscription: 404 `{"message": "Webhook subscription not found"}`.',
    params: webhookDeliveryPathParams,
    response: webhookDeliverySchema,
    responseDescription: 'The new delivery.',
    errors: ['webhook_delivery_not_found', 'webhook_subscription_not_found'],
  },
} as const satisfies RouteContracts;
