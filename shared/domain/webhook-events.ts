/**
 * The events a webhook subscription may ask for (the field contract's list): the `Svc-Event`
 * header of each delivery carries one of these names.
 */
export const webhookEventNames = [
  'TRANSACTION_COMPLETED',
  'SERVICE_PROVIDER_LINK_REQUEST',
  'ESCROW_HELD',
  'ESCROW_RELEASED',
  'ESCROW_REFUNDED',
  'COMPLIANCE_VERIFICATION_COMPLETED',
  'COLLECTION_REFUND',
  'REFUND_COMPLETED',
] as const;

export type WebhookEventName = (typeof webhookEventNames)[number];

/** What a subscription made without `events` receives: the reconciliation event integrations expect. */
export const defaultWebhookEvents: readonly WebhookEventName[] = ['TRANSACTION_COMPLETED'];

/**
 * Events only a subscription that names them receives: a subscription listing no events (every
 * event) does not get them, so a receiver written for payments never takes a refund's body, which
 * has a payment's shape, for a payment.
 */
export const optInWebhookEvents: readonly WebhookEventName[] = ['REFUND_COMPLETED'];
