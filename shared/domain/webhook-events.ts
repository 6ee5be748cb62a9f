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
] as const;

export type WebhookEventName = (typeof webhookEventNames)[number];

/** What a subscription made without `events` receives: the reconciliation event integrations expect. */
export const defaultWebhookEvents: readonly WebhookEventName[] = ['TRANSACTION_COMPLETED'];
