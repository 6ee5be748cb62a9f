import { coerce, enum as enumOf, object, uuid } from 'zod';
import { deliveryStatuses, type WebhookDelivery } from '#shared/data/webhook-delivery.ts';

export const listWebhookDeliveriesQuery = object({
  status: enumOf(deliveryStatuses).optional(),
  page: coerce.number().int().min(1).default(1),
  limit: coerce.number().int().min(1).max(100).default(100),
});

export type ListWebhookDeliveriesQuery = ReturnType<typeof listWebhookDeliveriesQuery.parse>;

export const webhookDeliveryPathParams = object({ id: uuid() });

/** A delivery as its business sees it: where it went and how every attempt ended, no secret. */
export function webhookDeliveryResponse(delivery: WebhookDelivery) {
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
