import type { WebhookEventName } from '#shared/domain/webhook-events.ts';

/**
 * An event the service announces to webhook subscribers: a state change, as the webhook body says
 * it. Its id is derived from what it announces (`TRANSACTION_COMPLETED:<transaction id>`), and its
 * instant is the change's own, so every reading of the same change makes the same event, hence the
 * same delivery.
 */
export interface ServiceEvent {
  id: string;
  /** `TRANSACTION_COMPLETED`, `ESCROW_HELD`, ...: sent as the Svc-Event header. */
  name: WebhookEventName;
  businessId: string;
  /** The exact webhook body. */
  body: Record<string, unknown>;
  createdAt: string;
}
