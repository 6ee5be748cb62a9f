import {
  _default,
  array,
  coerce,
  enum as enumOf,
  globalRegistry,
  gte,
  int,
  lte,
  nullable,
  object,
  optional,
  type output,
  string,
  uuid,
} from 'zod/mini';
import { instant, pageOf } from '#shared/api/common.ts';
import { endpointsIn } from '#shared/api/endpoint.ts';
import { readsTable, sendsWebhooks } from '#shared/catalogue/access.ts';
import { deliveryStatuses, type WebhookDelivery } from '#shared/data/webhook-delivery.ts';

export const listWebhookDeliveriesQuery = object({
  status: optional(enumOf(deliveryStatuses)),
  page: _default(coerce.number().check(int(), gte(1)), 1),
  limit: _default(coerce.number().check(int(), gte(1), lte(100)), 100),
});

export type ListWebhookDeliveriesQuery = ReturnType<typeof listWebhookDeliveriesQuery.parse>;

export const webhookDeliveryPathParams = object({ id: uuid() });

export const webhookDeliverySchema = object({
  id: uuid(),
  eventId: string(),
  eventName: string().register(globalRegistry, { description: 'The `Svc-Event` of the delivery.' }),
  url: string(),
  status: enumOf(deliveryStatuses),
  attempts: array(
    object({
      at: instant,
      status: nullable(int()).register(globalRegistry, {
        description: 'The receiver’s HTTP status; null when none came.',
      }),
      error: nullable(string()),
      durationMs: int(),
      responseExcerpt: string().register(globalRegistry, {
        description: 'The first KB of the receiver’s answer.',
      }),
    }),
  ),
  failureReason: optional(string()),
  resendOf: optional(uuid()).register(globalRegistry, { description: 'The delivery this one sends again.' }),
  createdAt: instant,
  updatedAt: instant,
}).register(globalRegistry, {
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
  ...pageOf(webhookDeliverySchema),
}).register(globalRegistry, { id: 'WebhookDeliveryList' });

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

export const webhookDeliveryEndpoints = /* @__PURE__ */ endpointsIn('webhook-deliveries', {
  listWebhookDeliveries: {
    method: 'GET',
    path: '/partner_api/webhook_deliveries',
    caller: 'api_key',
    access: [...readsTable, 'table:UpdateItem'],
    tag: 'Webhooks',
    summary: 'List the webhook deliveries',
    query: listWebhookDeliveriesQuery,
    response: webhookDeliveryListSchema,
    responseDescription: 'One page of the log.',
  },
  resendWebhookDelivery: {
    method: 'POST',
    path: '/partner_api/webhook_deliveries/{id}/resend',
    caller: 'api_key',
    access: ['table:GetItem', 'table:PutItem', 'table:UpdateItem', ...sendsWebhooks],
    tag: 'Webhooks',
    summary: 'Send a delivery again',
    params: webhookDeliveryPathParams,
    response: webhookDeliverySchema,
    responseDescription: 'The new delivery.',
    errors: ['webhook_delivery_not_found', 'webhook_subscription_not_found'],
  },
});
